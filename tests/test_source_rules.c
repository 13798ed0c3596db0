/* SPDX-License-Identifier: MIT */
/* check's source rules (gs_check_source_rules): every trick a file can use
 * to make a compiler read a file, run assembly, or read the text otherwise
 * than the checker does, in every dialect; every example the suite ships,
 * which must pass them; and the compile log a report shows
 * (gs_user_own_log): the file's own messages only, capped. */
#include <dirent.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "gs_check.h"
#include "gs_user.h"

static const enum gs_dialect every_dialect[] = {GS_DIALECT_PORTABLE, GS_DIALECT_OPENCL,
                                                GS_DIALECT_CUDA};

/* The message's line number and a word of the reason. */
static void refused(const char *text, const char *line, const char *why)
{
    for (size_t i = 0; i < sizeof every_dialect / sizeof every_dialect[0]; ++i) {
        struct gs_err e = {0};
        const int st = gs_check_source_rules("k", text, strlen(text), every_dialect[i], &e);
        if (st != GS_USAGE || strncmp(e.msg, line, strlen(line)) != 0 || !strstr(e.msg, why)) {
            print_error("dialect %d, text:\n%s\ngot %d: %s\n", (int)every_dialect[i], text, st,
                        e.msg);
            fail();
        }
    }
}

static void accepted(const char *text)
{
    for (size_t i = 0; i < sizeof every_dialect / sizeof every_dialect[0]; ++i) {
        struct gs_err e = {0};
        if (gs_check_source_rules("k", text, strlen(text), every_dialect[i], &e) != GS_OK) {
            print_error("dialect %d, text:\n%s\nrefused: %s\n", (int)every_dialect[i], text,
                        e.msg);
            fail();
        }
    }
}

/* NVRTC (C++17) ignores trigraphs: the backslash trigraph before a newline
 * is no splice there, so the next line's #include is real; cc -std=c11
 * splices. Refused. */
static void trigraph_splice_is_refused(void **state)
{
    (void)state;
    refused("int x; // ?\?/\n#include \"/etc/passwd\"\n", "k:1:", "trigraph ?\?/");
    refused("#define A 1 ?\?/\n#include \"/etc/passwd\"\n", "k:1:", "trigraph");
    refused("?\?=include \"/etc/passwd\"\n", "k:1:", "trigraph ?\?=");
    refused("const char *s = \"?\?<\";\n", "k:1:", "trigraph ?\?<");
    accepted("const char *s = \"?\?\"; /* ?\? what */\n");
}

static void line_and_linemarkers_are_refused(void **state)
{
    (void)state;
    refused("#line 1 \"/etc/passwd\"\nint x;\n", "k:1:", "#line");
    refused("int x;\n# 2 \"/etc/passwd\"\n", "k:2:", "line marker");
    refused("int x;\n#2 \"/etc/passwd\" 1 3\n", "k:2:", "line marker");
    refused("  /* c */ # /* c */ line 7\n", "k:1:", "#line");
    refused("%:line 7\n", "k:1:", "#line");
    refused("#li\\\nne 7\n", "k:1:", "#line");
    refused("#ident \"x\\n.incbin \\\"/etc/passwd\\\"\"\n", "k:1:", "#ident");
    refused("#sccs \"x\"\n", "k:1:", "#sccs");
    refused("#assert machine(x)\n", "k:1:", "#assert");
    refused("#include_next <x>\n", "k:1:", "#include_next");
    refused("#embed \"/etc/passwd\"\n", "k:1:", "#embed");
}

static void asm_is_refused_in_every_dialect(void **state)
{
    (void)state;
    refused("__asm__(\"syscall\");\n", "k:1:", "__asm__ is not allowed");
    refused("void f(void) { asm volatile(\"nop\"); }\n", "k:1:", "asm is not allowed");
    refused("int x __asm(\"y\");\n", "k:1:", "__asm is not allowed");
    refused("#define X __as\\\nm__\nX(\"x\");\n", "k:1:", "__asm__");
    refused("#define CAT(a, b) a ## b\nCAT(__as, m__)(\"x\");\n", "k:1:", "pasting");
    refused("#define CAT(a, b) a %:%: b\n", "k:1:", "pasting");
    refused("#define A(x) x\nA(__asm__)(\"x\");\n", "k:2:", "__asm__");
}

static void section_attributes_are_refused(void **state)
{
    (void)state;
    refused("int x __attribute__((section(\"a\\n.incbin \\\"/etc/passwd\\\"\")));\n", "k:1:",
            "section");
    refused("int x __attribute__((__section__(\".data\")));\n", "k:1:", "__section__");
    refused("[[gnu::section(\"x\")]] int x;\n", "k:1:", "section");
    refused("#define S section\nint x __attribute__((S(\"x\")));\n", "k:1:", "section");
    refused("void f(void) __attribute__((alias(\"g\\n.incbin \\\"x\\\"\")));\n", "k:1:", "alias");
    refused("__attribute__((constructor)) static void f(void) {}\n", "k:1:", "constructor");
    refused("__attribute__((destructor)) static void f(void) {}\n", "k:1:", "destructor");
    refused("void f(void) __attribute__((ifunc(\"r\")));\n", "k:1:", "ifunc");
    refused("void f(void) __attribute__((symver(\"f@V\")));\n", "k:1:", "symver");
}

static void pragmas_that_read_or_hide_are_refused(void **state)
{
    (void)state;
    refused("#pragma GCC dependency \"/etc/passwd\"\n", "k:1:", "#pragma");
    refused("_Pragma(\"GCC dependency \\\"/etc/passwd\\\"\")\n", "k:1:", "_Pragma");
    refused("#pragma redefine_extname a b\n", "k:1:", "#pragma");
    refused("#pragma weak a = b\n", "k:1:", "#pragma");
    refused("#if __has_include(\"/etc/shadow\")\n#endif\n", "k:1:", "whether a file exists");
    accepted("#pragma unroll\n#pragma unroll 4\n#pragma OPENCL EXTENSION cl_khr_fp64 : enable\n"
             "#pragma GCC unroll 8\n#pragma clang loop unroll(enable)\n");
}

/* Bytes that compilers read differently: each would hide a directive or
 * a name from one of them. */
static void ambiguous_bytes_are_refused(void **state)
{
    (void)state;
    /* gcc and clang end a line at a lone CR: the # starts a directive. */
    refused("int x;\r#include \"/etc/passwd\"\n", "k:1:", "carriage return");
    /* gcc splices a backslash and blanks before a newline. */
    refused("// x \\  \n#include \"/etc/passwd\"\n", "k:1:", "backslash followed by blanks");
    /* clang reads U+00A0 as a blank: the # starts the line for it. */
    refused("\xc2\xa0#include \"/etc/passwd\"\n", "k:1:", "byte over 127");
    refused("int \\u0061sm;\n", "k:1:", "backslash");
    /* C++ raw strings: R"(")" ends after the second quote for C++ only. */
    refused("const char *s = R\"(\")\" __asm__(\"x\") R\"(\")\";\n", "k:1:", "raw string");
    refused("const char *s = u8R\"x()x\";\n", "k:1:", "raw string");
    /* 1'0 is one number to C++, and a character constant to C11. */
    refused("int x = 1'0; asm(\"x\"); int y = '0';\n", "k:1:", "digit separator");
    accepted("int x = 'a', y = 0x1e+1, z = 1.5e-3f; const char *s = L\"\\\\\" \"\\\"\";\n");
    accepted("int x;\r\n#define A(x) #x\r\n#\r\nint y = 1; \\\r\n int z;\n");
    accepted("/* caf\xc3\xa9 */ const char *s = \"\xc3\xa9\";\n");
}

static void line_numbers_count_splices(void **state)
{
    (void)state;
    refused("int a; \\\nint b;\n\nasm(\"x\");\n", "k:4:", "asm");
    refused("/*\n\n*/ #include <x>\n", "k:3:", "#include");
}

/* Every kernel the suite ships passes, so the rules refuse tricks, not
 * ordinary kernels. */
static void every_example_is_accepted(void **state)
{
    const char *dir = *state;
    DIR *d = opendir(dir);
    assert_non_null(d);
    int seen = 0;
    for (struct dirent *ent; (ent = readdir(d));) {
        const char *dot = strrchr(ent->d_name, '.');
        enum gs_dialect dialect;
        struct gs_err e = {0};
        char path[4096];
        if (!dot || gs_dialect_of_path(ent->d_name, &dialect, &e) != GS_OK)
            continue;
        snprintf(path, sizeof path, "%s/%s", dir, ent->d_name);
        FILE *f = fopen(path, "rb");
        assert_non_null(f);
        static char text[1 << 20];
        const size_t len = fread(text, 1, sizeof text, f);
        fclose(f);
        if (gs_check_source_rules(ent->d_name, text, len, dialect, &e) != GS_OK) {
            print_error("%s refused: %s\n", path, e.msg);
            fail();
        }
        ++seen;
    }
    closedir(d);
    assert_true(seen >= 10);
}

static char *own(const char *log)
{
    return gs_user_own_log(strdup(log), "k.gs");
}

/* Messages about another file, and the excerpt lines after them (gcc's
 * indented, clang's at the line's start), are left out; the file's own
 * messages and the lines after them stay. */
static void the_log_keeps_the_files_own_messages(void **state)
{
    (void)state;
    char *l = own("k.gs: In function 'solve':\n"
                  "k.gs:7:25: error: 'c' undeclared\n"
                  "    7 |         out[i] = a[i] + c[i];\n"
                  "      |                         ^\n"
                  "/etc/passwd:1:5: error: expected ';'\n"
                  "root:x:0:0:root:/root:/bin/bash\n"
                  "    1 | daemon:x:1:1\n"
                  "error: other.cl:1:1: SECRET\n"
                  "SECRET again\n"
                  "error: k.gs(9): the end\n"
                  "Device x failed to build the program\n");
    assert_non_null(l);
    assert_null(strstr(l, "root"));
    assert_null(strstr(l, "daemon"));
    assert_null(strstr(l, "SECRET"));
    assert_non_null(strstr(l, "k.gs:7:25: error: 'c' undeclared\n    7 |"));
    assert_non_null(strstr(l, "k.gs: In function"));
    assert_non_null(strstr(l, "error: k.gs(9): the end\nDevice x failed"));
    assert_non_null(strstr(l, "[5 lines of the compiler's messages about other files left out]"));
    free(l);
    /* A log that names the file alone is unchanged. */
    const char *plain = "k.gs(12): error: identifier \"c\" is undefined\n  out[i] = c;\n";
    l = own(plain);
    assert_string_equal(l, plain);
    free(l);
    assert_null(gs_user_own_log(NULL, "k.gs"));
    /* "k.gs2:1:" is another file. */
    l = own("k.gs2:1:1: error: x\n");
    assert_null(strstr(l, "k.gs2:1:1"));
    free(l);
}

static void the_log_is_capped(void **state)
{
    (void)state;
    const size_t lines = 2000, width = 60; /* 120 KB of the file's own messages */
    char *log = malloc(lines * width + 1);
    assert_non_null(log);
    for (size_t i = 0; i < lines; ++i) {
        memset(log + i * width, 'x', width - 1);
        memcpy(log + i * width, "k.gs:1:1: error: ", 17);
        log[i * width + width - 1] = '\n';
    }
    log[lines * width] = '\0';
    char *l = gs_user_own_log(log, "k.gs");
    assert_non_null(l);
    assert_true(strlen(l) <= GS_USER_LOG_CAP + 200);
    assert_non_null(strstr(l, "[the compiler's messages are truncated at 64 KiB"));
    const char *note = strstr(l, "[the compiler");
    assert_true(note > l && note[-1] == '\n'); /* cut at a line */
    free(l);
}

int main(int argc, char **argv)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(trigraph_splice_is_refused),
        cmocka_unit_test(line_and_linemarkers_are_refused),
        cmocka_unit_test(asm_is_refused_in_every_dialect),
        cmocka_unit_test(section_attributes_are_refused),
        cmocka_unit_test(pragmas_that_read_or_hide_are_refused),
        cmocka_unit_test(ambiguous_bytes_are_refused),
        cmocka_unit_test(line_numbers_count_splices),
        cmocka_unit_test(the_log_keeps_the_files_own_messages),
        cmocka_unit_test(the_log_is_capped),
        cmocka_unit_test_prestate(every_example_is_accepted, argc > 1 ? argv[1] : "examples"),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
