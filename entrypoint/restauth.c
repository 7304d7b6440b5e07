/* restauth: the REST authentication files' checks (see restauth.h). The JAAS file is read as
 * Java's ConfigFile reads it: entries NAME { MODULE FLAG [KEY=VALUE ...]; ... }; with // and
 * C-style comments, values bare words or "quoted". */
#include "restauth.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "props.h"

#define SHOW 120
#define TOKEN_MAX PATH_MAX

enum tok { T_END, T_WORD, T_STRING, T_PUNCT, T_BAD };

struct lexer {
    const char *s;
    size_t pos;
    char text[TOKEN_MAX]; /* the token: a word, a string's contents, or one punctuation char */
};

static void skip_blanks_and_comments(struct lexer *lx)
{
    for (;;) {
        const char *c = lx->s + lx->pos;
        if (*c == ' ' || *c == '\t' || *c == '\r' || *c == '\n' || *c == '\f') {
            lx->pos++;
        } else if (c[0] == '/' && c[1] == '/') {
            lx->pos += strcspn(c, "\n");
        } else if (c[0] == '/' && c[1] == '*') {
            const char *end = strstr(c + 2, "*/");
            lx->pos = end != NULL ? (size_t)(end + 2 - lx->s) : lx->pos + strlen(c);
        } else {
            return;
        }
    }
}

static enum tok next(struct lexer *lx)
{
    const char *c;
    size_t n;

    skip_blanks_and_comments(lx);
    c = lx->s + lx->pos;
    if (*c == '\0')
        return T_END;
    if (strchr("{};=", *c) != NULL) {
        lx->text[0] = *c;
        lx->text[1] = '\0';
        lx->pos++;
        return T_PUNCT;
    }
    if (*c == '"') {
        const char *end = strchr(c + 1, '"');
        if (end == NULL || (size_t)(end - c - 1) >= sizeof(lx->text))
            return T_BAD;
        n = (size_t)(end - c - 1);
        memcpy(lx->text, c + 1, n);
        lx->text[n] = '\0';
        lx->pos += n + 2;
        return T_STRING;
    }
    n = strcspn(c, " \t\r\n\f{};=\"/");
    if (n == 0 || n >= sizeof(lx->text))
        return T_BAD;
    memcpy(lx->text, c, n);
    lx->text[n] = '\0';
    lx->pos += n;
    return T_WORD;
}

/* What the KafkaConnect entry holds. */
struct entry {
    bool found;
    size_t modules;
    bool other_module; /* a module other than RESTAUTH_MODULE */
    bool has_file;
    char file[PATH_MAX];
};

/* One login module: MODULE FLAG [KEY=VALUE ...] ;  -1 on a syntax error. */
static int parse_module(struct lexer *lx, struct entry *e, bool ours)
{
    bool mine = ours && strcmp(lx->text, RESTAUTH_MODULE) == 0;

    if (ours) {
        e->modules++;
        e->other_module = e->other_module || !mine;
    }
    if (next(lx) != T_WORD) /* the flag: required, requisite, sufficient, optional */
        return -1;
    for (;;) {
        enum tok t = next(lx);
        char key[64];
        if (t == T_PUNCT && lx->text[0] == ';')
            return 0;
        if (t != T_WORD || strlen(lx->text) >= sizeof(key))
            return -1;
        memcpy(key, lx->text, strlen(lx->text) + 1);
        if (next(lx) != T_PUNCT || lx->text[0] != '=')
            return -1;
        t = next(lx);
        if (t != T_WORD && t != T_STRING)
            return -1;
        if (mine && strcmp(key, "file") == 0) {
            e->has_file = true;
            (void)snprintf(e->file, sizeof(e->file), "%s", lx->text);
        }
    }
}

/* The whole file; the KafkaConnect entry into e. -1 on a syntax error. */
static int parse_jaas(const char *text, struct entry *e)
{
    struct lexer lx = {.s = text};

    for (;;) {
        enum tok t = next(&lx);
        bool ours;
        if (t == T_END)
            return 0;
        if (t != T_WORD)
            return -1;
        ours = strcmp(lx.text, "KafkaConnect") == 0;
        e->found = e->found || ours;
        if (next(&lx) != T_PUNCT || lx.text[0] != '{')
            return -1;
        for (;;) {
            t = next(&lx);
            if (t == T_PUNCT && lx.text[0] == '}')
                break;
            if (t != T_WORD || parse_module(&lx, e, ours) != 0)
                return -1;
        }
        if (next(&lx) != T_PUNCT || lx.text[0] != ';')
            return -1;
    }
}

/* The JAAS file's text (NUL-terminated, malloc'd) or NULL after adding a problem. */
static char *read_jaas(const char *path, struct mm2_problems *p)
{
    int fd = open(path, O_RDONLY | O_CLOEXEC | O_NOCTTY);
    char *buf;
    ssize_t got = 0, r = 0;

    if (fd < 0) {
        mm2_problems_add(
            p,
            "MM2_REST_JAAS_CONFIG=%.*s: cannot read the REST JAAS file: %s; the worker "
            "config names " RESTAUTH_EXTENSION ", mount the REST auth Secret there",
            SHOW, path, strerror(errno));
        return NULL;
    }
    buf = malloc(RESTAUTH_JAAS_MAX + 2);
    while (buf != NULL && got <= RESTAUTH_JAAS_MAX &&
           (r = read(fd, buf + got, (size_t)(RESTAUTH_JAAS_MAX + 1 - got))) > 0)
        got += r;
    close(fd);
    if (buf == NULL || r < 0 || got > RESTAUTH_JAAS_MAX || memchr(buf, '\0', (size_t)got)) {
        mm2_problems_add(p,
                         "MM2_REST_JAAS_CONFIG=%.*s: %s; it must be a JAAS text file of at most %d "
                         "bytes",
                         SHOW, path,
                         buf == NULL ? "out of memory"
                         : r < 0     ? strerror(errno)
                                     : "too large or not text",
                         RESTAUTH_JAAS_MAX);
        free(buf);
        return NULL;
    }
    buf[got] = '\0';
    return buf;
}

/* The credentials file: readable, at least one user, no user with an empty password. */
static void check_credentials(const char *path, struct mm2_problems *p)
{
    static struct props pr; /* large; one call at a time */
    int rc;
    size_t empty = 0;

    memset(&pr, 0, sizeof(pr));
    errno = 0;
    rc = props_load(&pr, path);
    if (rc == -1)
        mm2_problems_add(p,
                         "the REST credentials file %.*s (the KafkaConnect entry's file=): cannot "
                         "read it: %s; mount the REST auth Secret there",
                         SHOW, path, errno != 0 ? strerror(errno) : "read error");
    else if (rc == -2 || rc == -3)
        mm2_problems_add(p,
                         "the REST credentials file %.*s: more than %d bytes or %d users, or not "
                         "text; it holds user=password lines",
                         SHOW, path, PROPS_MAX_BYTES, PROPS_MAX_ENTRIES);
    else if (pr.n == 0)
        mm2_problems_add(p,
                         "the REST credentials file %.*s holds no user, and Kafka's "
                         "PropertyFileLoginModule then admits EVERY request; give it user=password "
                         "lines (from the Secret)",
                         SHOW, path);
    for (size_t i = 0; rc == 0 && i < pr.n; i++)
        empty += pr.e[i].val[0] == '\0';
    if (empty > 0)
        mm2_problems_add(p,
                         "the REST credentials file %.*s has %zu user(s) with an empty password, "
                         "which anyone who sends that user name passes; give each a password",
                         SHOW, path, empty);
    free(pr.buf);
}

void restauth_check(const char *jaas_path, struct mm2_problems *p)
{
    struct entry e = {0};
    char *text = read_jaas(jaas_path, p);

    if (text == NULL)
        return;
    if (parse_jaas(text, &e) != 0)
        mm2_problems_add(p,
                         "MM2_REST_JAAS_CONFIG=%.*s is not a JAAS file Java reads (NAME { MODULE "
                         "FLAG KEY=\"VALUE\"; };), and the worker would not start",
                         SHOW, jaas_path);
    else if (!e.found)
        mm2_problems_add(p,
                         "MM2_REST_JAAS_CONFIG=%.*s has no KafkaConnect entry, the one "
                         "BasicAuthSecurityRestExtension logs in with: every request would be "
                         "refused (401)",
                         SHOW, jaas_path);
    else if (e.modules != 1 || e.other_module)
        mm2_problems_add(p,
                         "MM2_REST_JAAS_CONFIG=%.*s: the KafkaConnect entry must hold one login "
                         "module, " RESTAUTH_MODULE " (the one the image ships)",
                         SHOW, jaas_path);
    else if (!e.has_file || e.file[0] == '\0')
        mm2_problems_add(p,
                         "MM2_REST_JAAS_CONFIG=%.*s: the KafkaConnect entry names no credentials "
                         "file; give its login module file=\"/etc/mm2/rest-auth/...\"",
                         SHOW, jaas_path);
    else if (e.file[0] != '/' || strstr(e.file, "${") != NULL)
        mm2_problems_add(p,
                         "MM2_REST_JAAS_CONFIG=%.*s: the credentials file must be an absolute "
                         "path without ${...}",
                         SHOW, jaas_path);
    else
        check_credentials(e.file, p);
    free(text);
}
