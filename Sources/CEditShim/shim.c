#include "CEditShim.h"
#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>
#include <errno.h>
#include <signal.h>
#include <string.h>
#include <unistd.h>

static struct {
    char *(*readline)(const char *);
    int (*add_history)(const char *);
    void (*using_history)(void);
    void (*stifle_history)(int);
    int (*read_history)(const char *);
    int (*write_history)(const char *);
    char **(*completion_matches)(const char *, pekit_entry_fn *);
    pekit_completion_fn **attempted_completion;
    int *attempted_completion_over;
    int *completion_append_character;
    char **line_buffer;
    pekit_getc_fn **getc;
} edit;

static pthread_once_t once = PTHREAD_ONCE_INIT;
static char failure[512];
static const char *load_error = NULL;

static void load(void) {
    // Debian's libedit2 (libedit-dev provides the headers and the same soname).
    void *lib = dlopen("libedit.so.2", RTLD_NOW | RTLD_LOCAL);
    if (!lib) {
        const char *why = dlerror();
        snprintf(failure, sizeof failure, "cannot load libedit for the REPL (%s); install Debian's libedit2", why ? why : "unknown error");
        load_error = failure;
        return;
    }
#define PEKIT_SYMBOL(field, name)                                                        \
    *(void **)(&edit.field) = dlsym(lib, name);                                          \
    if (!edit.field) {                                                                   \
        snprintf(failure, sizeof failure, "libedit.so.2 has no %s (too old?)", name);    \
        load_error = failure;                                                            \
        return;                                                                          \
    }
    PEKIT_SYMBOL(readline, "readline")
    PEKIT_SYMBOL(add_history, "add_history")
    PEKIT_SYMBOL(using_history, "using_history")
    PEKIT_SYMBOL(stifle_history, "stifle_history")
    PEKIT_SYMBOL(read_history, "read_history")
    PEKIT_SYMBOL(write_history, "write_history")
    PEKIT_SYMBOL(completion_matches, "rl_completion_matches")
    PEKIT_SYMBOL(attempted_completion, "rl_attempted_completion_function")
    PEKIT_SYMBOL(attempted_completion_over, "rl_attempted_completion_over")
    PEKIT_SYMBOL(completion_append_character, "rl_completion_append_character")
    PEKIT_SYMBOL(line_buffer, "rl_line_buffer")
    PEKIT_SYMBOL(getc, "rl_getc_function")
#undef PEKIT_SYMBOL
}

const char *pekit_edit_load(void) {
    pthread_once(&once, load);
    return load_error;
}

// Each is called only after pekit_edit_load() returned NULL.
char *pekit_readline(const char *prompt) { return edit.readline(prompt); }
void pekit_add_history(const char *line) { edit.add_history(line); }
void pekit_using_history(void) { edit.using_history(); }
void pekit_stifle_history(int max) { edit.stifle_history(max); }
int pekit_read_history(const char *path) { return edit.read_history(path); }
int pekit_write_history(const char *path) { return edit.write_history(path); }
char **pekit_completion_matches(const char *text, pekit_entry_fn *entry) { return edit.completion_matches(text, entry); }
void pekit_set_attempted_completion(pekit_completion_fn *function) { *edit.attempted_completion = function; }
void pekit_set_attempted_completion_over(int over) { *edit.attempted_completion_over = over; }
void pekit_set_completion_append_character(int character) { *edit.completion_append_character = character; }
const char *pekit_line_buffer(void) { return *edit.line_buffer; }
void pekit_set_getc(pekit_getc_fn *function) { *edit.getc = function; }

// ---- Ctrl-C at the REPL's prompt ----
// Without SA_RESTART, so the read under the prompt returns EINTR and the line can be cleared.
static volatile sig_atomic_t prompt_interrupted = 0;
static struct sigaction prompt_previous;

static void on_prompt_sigint(int sig) { (void)sig; prompt_interrupted = 1; }

void pekit_prompt_begin(void) {
    struct sigaction action;
    memset(&action, 0, sizeof action);
    action.sa_handler = on_prompt_sigint;
    sigemptyset(&action.sa_mask);
    sigaction(SIGINT, &action, &prompt_previous);
}

void pekit_prompt_end(void) { sigaction(SIGINT, &prompt_previous, NULL); }

int pekit_prompt_take_interrupt(void) {
    int was = prompt_interrupted;
    prompt_interrupted = 0;
    return was;
}

int pekit_prompt_read_char(int fd) {
    unsigned char lead;
    for (;;) {
        ssize_t n = read(fd, &lead, 1);
        if (n == 1) break;
        if (n < 0 && errno == EINTR && !prompt_interrupted) continue;
        return -1;
    }
    // A UTF-8 sequence is read whole: the line editor takes one code point per call.
    int extra = lead >= 0xF0 && lead < 0xF8 ? 3 : lead >= 0xE0 ? 2 : lead >= 0xC0 ? 1 : 0;
    if (lead >= 0x80 && lead < 0xC0) return 0xFFFD;
    int code = extra == 3 ? lead & 0x07 : extra == 2 ? lead & 0x0F : extra == 1 ? lead & 0x1F : lead;
    for (int i = 0; i < extra; i++) {
        unsigned char next;
        ssize_t n;
        do { n = read(fd, &next, 1); } while (n < 0 && errno == EINTR && !prompt_interrupted);
        if (n != 1) return -1;
        if ((next & 0xC0) != 0x80) return 0xFFFD;
        code = (code << 6) | (next & 0x3F);
    }
    return code;
}
