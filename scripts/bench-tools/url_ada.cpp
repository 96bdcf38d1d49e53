// The URL yardstick for issue 47: ada (the C++ WHATWG URL parser) itself, parsing each line of
// a file and reading its href, timed as pekit-bench urls times pekit (median of 5 runs).
// Built by section_9_urls.py from the ada.cpp and ada.h that PyPI's ada-url wheel carries,
// outside the repository and for this comparison only:
//   c++ -O3 -DNDEBUG -std=c++17 url_ada.cpp ada.cpp -o url_ada && ./url_ada urls.txt
#include "ada.h"
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <fstream>
#include <string>
#include <vector>

int main(int argc, char **argv) {
    if (argc != 2) { std::fprintf(stderr, "usage: url_ada FILE\n"); return 2; }
    std::ifstream in(argv[1]);
    std::vector<std::string> lines;
    for (std::string line; std::getline(in, line);) lines.push_back(line);
    size_t failures = 0, length = 0;
    auto run = [&] {
        failures = 0;
        length = 0;
        for (const auto &line : lines) {
            auto url = ada::parse<ada::url_aggregator>(line);
            if (url) length += url->get_href().size(); else failures++;
        }
    };
    run();
    std::vector<double> times;
    for (int i = 0; i < 5; i++) {
        auto start = std::chrono::steady_clock::now();
        run();
        times.push_back(std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count());
    }
    std::sort(times.begin(), times.end());
    std::printf("{\"impl\":\"ada\",\"ms\":%.2f,\"failures\":%zu,\"count\":%zu,\"length\":%zu,\"version\":\"%s\"}\n",
                times[2], failures, lines.size(), length, ADA_VERSION);
    return 0;
}
