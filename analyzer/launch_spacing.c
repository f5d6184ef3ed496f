/* launch_spacing.c: kernel launches written with spaced brackets ('k << <g, b >> >(a)', as
 * Visual Studio formats them; nvcc reads them, clang does not), found in a file's text and
 * rewritten to '<<<' and '>>>' with every other byte where it was (docs/lint.md, "Launches
 * written '<< <' ... '>> >'"). */
#include "launch_spacing.h"
#include "log.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>

static int is_blank(char c)
{
    return c == ' ' || c == '\t';
}

static int is_word(char c)
{
    return isalnum((unsigned char)c) || c == '_';
}

/* Makes code[from, to) blanks, but for its newlines. */
static void blank(char *code, size_t from, size_t to)
{
    for (size_t i = from; i < to; i++) {
        if (code[i] != '\n' && code[i] != '\r')
            code[i] = ' ';
    }
}

/* Whether the newline at 'at' of 'text' is escaped by a backslash (a line continued). */
static int continued(const char *text, size_t at)
{
    if (at > 0 && text[at - 1] == '\r')
        at--;
    return at > 0 && text[at - 1] == '\\';
}

/* One past the end of the comment that opens at 'at' ('//' or a block comment). */
static size_t comment_end(const char *text, size_t size, size_t at)
{
    if (text[at + 1] == '*') {
        const char *end = at + 2 < size ? memmem(text + at + 2, size - at - 2, "*/", 2) : NULL;
        return end ? (size_t)(end - text) + 2 : size;
    }
    size_t i = at + 2;
    while (i < size && (text[i] != '\n' || continued(text, i)))
        i++;
    return i;
}

/* One past the end of the string or character literal whose quote is at 'at' (at its line's
 * end when it is not closed there). */
static size_t literal_end(const char *text, size_t size, size_t at)
{
    for (size_t i = at + 1; i < size; i++) {
        if (text[i] == '\\')
            i++;
        else if (text[i] == text[at])
            return i + 1;
        else if (text[i] == '\n')
            return i;
    }
    return size;
}

/* One past the end of the raw string literal whose '"' is at 'at' ('R"delim(...)delim"'), or
 * 0 when what follows is no raw string's opening. */
static size_t raw_end(const char *text, size_t size, size_t at)
{
    size_t open = at + 1;
    while (open < size && open - at <= 17 && text[open] != '(' &&
           !isspace((unsigned char)text[open]) && text[open] != '\\' && text[open] != ')' &&
           text[open] != '"')
        open++;
    if (open >= size || text[open] != '(')
        return 0;
    char close[20];
    size_t delim = open - at - 1;
    close[0] = ')';
    memcpy(close + 1, text + at + 1, delim);
    close[delim + 1] = '"';
    const char *end = memmem(text + open, size - open, close, delim + 2);
    return end ? (size_t)(end - text) + delim + 2 : size;
}

/* One past the end of the identifier or number that starts at 'at'. */
static size_t word_end(const char *text, size_t size, size_t at)
{
    size_t i = at + 1;
    int number = isdigit((unsigned char)text[at]);
    while (i < size) {
        char c = text[i];
        int sign = number && (c == '+' || c == '-') && strchr("eEpP", text[i - 1]);
        int separator = number && (c == '\'' || c == '.') && i + 1 < size && is_word(text[i + 1]);
        if (!is_word(c) && !sign && !separator)
            break;
        i++;
    }
    return i;
}

/* Whether the word text[at, end) is the prefix of a raw string literal. */
static int raw_prefix(const char *text, size_t at, size_t end)
{
    static const char *const prefixes[] = {"R", "u8R", "uR", "UR", "LR"};
    for (size_t k = 0; k < sizeof prefixes / sizeof prefixes[0]; k++) {
        if (strlen(prefixes[k]) == end - at && memcmp(text + at, prefixes[k], end - at) == 0)
            return 1;
    }
    return 0;
}

/* 'text' with the insides of its comments and literals made blanks (their delimiters and
 * newlines kept), so that a search finds code only; 'size' bytes and a NUL, malloc'ed. */
static char *code_view(const char *text, size_t size)
{
    char *code = ss_xmalloc(size + 1);
    memcpy(code, text, size);
    code[size] = '\0';
    for (size_t i = 0; i < size;) {
        size_t end = i + 1;
        if (text[i] == '/' && i + 1 < size && (text[i + 1] == '/' || text[i + 1] == '*')) {
            end = comment_end(text, size, i);
            int closed = text[i + 1] == '*' && end >= i + 4 && text[end - 1] == '/';
            blank(code, i + 2, closed ? end - 2 : end);
        } else if (text[i] == '"' || text[i] == '\'') {
            end = literal_end(text, size, i);
            blank(code, i + 1, end > i + 1 && text[end - 1] == text[i] ? end - 1 : end);
        } else if (is_word(text[i])) {
            end = word_end(text, size, i);
            size_t raw = end < size && text[end] == '"' && raw_prefix(text, i, end)
                             ? raw_end(text, size, end)
                             : 0;
            if (raw) {
                blank(code, end + 1, raw - 1);
                end = raw;
            }
        }
        i = end;
    }
    return code;
}

/* Whether the word 'operator' stands before 'at' (blanks and newlines between). */
static int after_operator(const char *code, size_t at)
{
    size_t i = at;
    while (i > 0 && isspace((unsigned char)code[i - 1]))
        i--;
    return i >= 8 && memcmp(code + i - 8, "operator", 8) == 0 && (i == 8 || !is_word(code[i - 9]));
}

/* The offset of the last '<' of a spaced launch opening that starts at 'at' ('<<', blanks,
 * '<'), or 0 when none starts there. */
static size_t opening(const char *code, size_t size, size_t at)
{
    if (at + 3 >= size || code[at] != '<' || code[at + 1] != '<' || !is_blank(code[at + 2]) ||
        (at > 0 && code[at - 1] == '<'))
        return 0;
    size_t j = at + 2;
    while (j < size && is_blank(code[j]))
        j++;
    return j < size && code[j] == '<' && !after_operator(code, at) ? j : 0;
}

/* How the launch configuration that starts at 'from' closes, in the same expression (at the
 * same depth of brackets, before a ';'): 2 with '>>', blanks, '>' (its first and last '>' in
 * '*first' and '*last'), 1 with '>>>', 0 not at all. */
static int closing(const char *code, size_t size, size_t from, size_t *first, size_t *last)
{
    int depth = 0;
    for (size_t k = from; k < size; k++) {
        char c = code[k];
        if (c == '(' || c == '[' || c == '{') {
            depth++;
        } else if (c == ')' || c == ']' || c == '}') {
            if (depth-- == 0)
                return 0;
        } else if (c == ';' && depth == 0) {
            return 0;
        } else if (c == '>' && depth == 0 && k + 1 < size && code[k + 1] == '>') {
            if (k + 2 < size && code[k + 2] == '>')
                return 1;
            size_t j = k + 2;
            while (j < size && is_blank(code[j]))
                j++;
            if (j > k + 2 && j < size && code[j] == '>') {
                *first = k;
                *last = j;
                return 2;
            }
            k++;
        }
    }
    return 0;
}

int ss_launch_spacing_at(const char *text, size_t size, size_t offset)
{
    if (offset >= size || text[offset] != '<')
        return 0;
    size_t i = offset;
    while (i > 0 && is_blank(text[i - 1]))
        i--;
    return i < offset && i >= 2 && opening(text, size, i - 2) == offset;
}

/* Moves the bracket at 'bracket' to 'gap', the first blank after the other two brackets: the
 * blanks between them move one byte on. */
static void move_bracket(char *text, size_t gap, size_t bracket)
{
    char blank_char = text[gap];
    text[gap] = text[bracket];
    text[bracket] = blank_char;
}

/* Whether 'text' has '<<', blanks, '<' anywhere (comments and literals too): most files have
 * none, and are not looked at further. */
static int may_have_opening(const char *text, size_t size)
{
    for (const char *p = text, *end = text + size;
         (p = memmem(p, (size_t)(end - p), "<<", 2)) != NULL; p += 2) {
        const char *q = p + 2;
        while (q < end && is_blank(*q))
            q++;
        if (q > p + 2 && q < end && *q == '<')
            return 1;
    }
    return 0;
}

char *ss_launch_spacing_rewrite(const char *text, size_t size, size_t *count)
{
    *count = 0;
    if (size < 4 || !may_have_opening(text, size))
        return NULL;
    char *code = code_view(text, size);
    char *out = NULL;
    for (size_t i = 0; i + 3 < size; i++) {
        size_t open = code[i] == '<' ? opening(code, size, i) : 0;
        size_t first = 0, last = 0;
        int close = open ? closing(code, size, open + 1, &first, &last) : 0;
        if (close == 0)
            continue;
        if (out == NULL) {
            out = ss_xmalloc(size + 1);
            memcpy(out, text, size);
            out[size] = '\0';
        }
        move_bracket(out, i + 2, open);
        if (close == 2)
            move_bracket(out, first + 2, last);
        (*count)++;
        i = close == 2 ? last : open;
    }
    free(code);
    return out;
}
