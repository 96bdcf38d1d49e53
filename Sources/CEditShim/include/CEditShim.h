#ifndef PEKIT_CEDITSHIM_H
#define PEKIT_CEDITSHIM_H

#include <stdio.h>

// libedit is loaded with dlopen when the REPL starts, not linked: linking it put libedit,
// libtinfo, libbsd and libmd in every pekit start-up (issue 47), which only `pekit repl` uses.
// Each wrapper calls through the pointer pekit_edit_load() resolved; the readline globals the
// REPL sets are reached through theirs.

/// What libedit's readline asks for completions: the word, its start and end.
typedef char **pekit_completion_fn(const char *text, int start, int end);
/// One candidate a time, for rl_completion_matches.
typedef char *pekit_entry_fn(const char *text, int state);
/// Reads one character for readline.
typedef int pekit_getc_fn(FILE *stream);

/// Loads libedit.so.2 once; NULL on success, else why it could not be loaded.
const char *pekit_edit_load(void);

// One wrapper per libedit call or global the REPL uses.
char *pekit_readline(const char *prompt);
void pekit_add_history(const char *line);
void pekit_using_history(void);
void pekit_stifle_history(int max);
int pekit_read_history(const char *path);
int pekit_write_history(const char *path);
char **pekit_completion_matches(const char *text, pekit_entry_fn *entry);
void pekit_set_attempted_completion(pekit_completion_fn *function);
void pekit_set_attempted_completion_over(int over);
void pekit_set_completion_append_character(int character);
const char *pekit_line_buffer(void);
void pekit_set_getc(pekit_getc_fn *function);

/// Ctrl-C at the REPL's prompt: `begin` installs a SIGINT handler without SA_RESTART (so the
/// read under the prompt is interrupted), `end` restores the one before, `take_interrupt` says
/// whether Ctrl-C came (and clears it).
void pekit_prompt_begin(void);
void pekit_prompt_end(void);
int pekit_prompt_take_interrupt(void);
/// One code point from `fd` (a whole UTF-8 sequence; U+FFFD for a broken one), or -1 at end of
/// input, on an error, or when Ctrl-C interrupted the read: the line editor's getc.
int pekit_prompt_read_char(int fd);

#endif
