// The yardstick of the IDNA benchmark (issue 47): ICU's UTS #46 (uidna_nameToASCII_UTF8, what
// pekit used before its own, and what node and Chromium use) over the same names, in one
// process. Built by section_13_idna.py against Debian's libicu-dev, for the comparison only.
// Usage: idna_icu NAMES_FILE  ->  {"impl":"icu","ns_per_name":…,"names":…,"refused":…}
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unicode/uidna.h>

static double now(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return t.tv_sec + t.tv_nsec / 1e9;
}

static int compare(const void *a, const void *b) {
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

int main(int argc, char **argv) {
    if (argc < 2) return 2;
    FILE *f = fopen(argv[1], "r");
    if (!f) return 1;
    char **names = NULL, line[4096];
    size_t count = 0;
    while (fgets(line, sizeof line, f)) {
        line[strcspn(line, "\n")] = 0;
        names = realloc(names, (count + 1) * sizeof *names);
        names[count++] = strdup(line);
    }
    fclose(f);
    UErrorCode status = U_ZERO_ERROR;
    // The URL Standard's options: nontransitional, CheckBidi, CheckJoiners.
    UIDNA *idna = uidna_openUTS46(UIDNA_CHECK_BIDI | UIDNA_CHECK_CONTEXTJ | UIDNA_NONTRANSITIONAL_TO_ASCII, &status);
    if (U_FAILURE(status)) return 1;
    char out[4096];
    double times[7];
    int refused = 0;
    size_t repeats = count ? (20000 / count > 1 ? 20000 / count : 1) : 1;
    for (int run = 0; run < 7; run++) {
        refused = 0;
        double start = now();
        for (size_t r = 0; r < repeats; r++) for (size_t i = 0; i < count; i++) {
            UIDNAInfo info = UIDNA_INFO_INITIALIZER;
            UErrorCode error = U_ZERO_ERROR;
            uidna_nameToASCII_UTF8(idna, names[i], -1, out, sizeof out, &info, &error);
            if (r == 0 && (U_FAILURE(error) || (info.errors & ~0x3Fu))) refused++;
        }
        times[run] = (now() - start) / (count * repeats) * 1e9;
    }
    qsort(times, 7, sizeof *times, compare);
    printf("{\"impl\":\"icu\",\"ns_per_name\":%.1f,\"names\":%zu,\"refused\":%d,\"version\":\"%s\"}\n", times[3], count, refused, U_ICU_VERSION);
    return 0;
}
