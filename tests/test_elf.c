/* SPDX-License-Identifier: MIT */
/* gs_elf_load_time_code on objects made byte by byte here: each kind of
 * code the loader runs by itself is found, a clean object passes, and a
 * table that lies outside the object is refused, never read. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "gs_elf.h"

#define OBJ 1024
static const char strtab[] = "\0.shstrtab\0.init_array\0.text\0.ctors\0";
enum { NAME_SHSTRTAB = 1, NAME_INIT_ARRAY = 11, NAME_TEXT = 23, NAME_CTORS = 29 };

static void put(unsigned char *o, size_t off, uint64_t v, unsigned bytes)
{
    for (unsigned i = 0; i < bytes; ++i)
        o[off + i] = (unsigned char)(v >> (8 * i));
}

/* An x86-64 object: header, three section headers at 64 (null, the names at
 * 512, and one of `type`, named `name`, of `size` bytes at 600 with entries
 * of `ent` bytes), no program headers. */
static void make(unsigned char *o, unsigned name, unsigned type, uint64_t size, uint64_t ent)
{
    memset(o, 0, OBJ);
    memcpy(o, "\177ELF\2\1\1", 7);
    put(o, 0x10, 3, 2);  /* ET_DYN */
    put(o, 0x12, 62, 2); /* EM_X86_64 */
    put(o, 0x28, 64, 8); /* e_shoff */
    put(o, 0x3A, 64, 2);
    put(o, 0x3C, 3, 2);
    put(o, 0x3E, 1, 2);
    memcpy(o + 512, strtab, sizeof strtab);
    put(o, 64 + 64 + 0, NAME_SHSTRTAB, 4);
    put(o, 64 + 64 + 4, 3, 4);
    put(o, 64 + 64 + 24, 512, 8);
    put(o, 64 + 64 + 32, sizeof strtab, 8);
    put(o, 64 + 128 + 0, name, 4);
    put(o, 64 + 128 + 4, type, 4);
    put(o, 64 + 128 + 24, 600, 8);
    put(o, 64 + 128 + 32, size, 8);
    put(o, 64 + 128 + 56, ent, 8);
}

static int check(const unsigned char *o, size_t len, const char *word)
{
    char why[200] = "";
    const int r = gs_elf_load_time_code(o, len, why, sizeof why);
    if (word && !strstr(why, word)) {
        print_error("'%s' does not say '%s'\n", why, word);
        return 99;
    }
    return r;
}

static void a_clean_object_passes(void **state)
{
    (void)state;
    unsigned char o[OBJ];
    make(o, NAME_TEXT, 1, 16, 0);
    assert_int_equal(check(o, OBJ, NULL), 0);
    make(o, NAME_INIT_ARRAY, 14, 0, 8); /* empty */
    assert_int_equal(check(o, OBJ, NULL), 0);
}

static void initialisers_are_found(void **state)
{
    (void)state;
    unsigned char o[OBJ];
    make(o, NAME_INIT_ARRAY, 14, 8, 8);
    assert_int_equal(check(o, OBJ, ".init_array"), 1);
    make(o, NAME_CTORS, 1, 16, 0);
    assert_int_equal(check(o, OBJ, ".ctors"), 1);
    make(o, NAME_TEXT, 16, 8, 8); /* SHT_PREINIT_ARRAY under another name */
    assert_int_equal(check(o, OBJ, "initialisers"), 1);
}

static void dynamic_tags_are_found(void **state)
{
    (void)state;
    unsigned char o[OBJ];
    make(o, NAME_TEXT, 1, 16, 0);
    put(o, 0x20, 320, 8); /* e_phoff */
    put(o, 0x36, 56, 2);
    put(o, 0x38, 1, 2);
    put(o, 320, 2, 4);       /* PT_DYNAMIC */
    put(o, 320 + 8, 700, 8); /* p_offset */
    put(o, 320 + 32, 48, 8); /* p_filesz: three entries */
    put(o, 700, 5, 8);       /* DT_STRTAB */
    put(o, 716, 12, 8);      /* DT_INIT */
    assert_int_equal(check(o, OBJ, "DT_INIT"), 1);
    put(o, 716, 0, 8); /* DT_NULL ends the table before it */
    put(o, 732, 12, 8);
    assert_int_equal(check(o, OBJ, NULL), 0);
}

static void resolvers_are_found(void **state)
{
    (void)state;
    unsigned char o[OBJ];
    make(o, NAME_TEXT, 4, 24, 24); /* SHT_RELA, one entry */
    put(o, 600 + 8, 37, 4);        /* R_X86_64_IRELATIVE */
    assert_int_equal(check(o, OBJ, "IRELATIVE"), 1);
    make(o, NAME_TEXT, 11, 24, 24); /* SHT_DYNSYM, one symbol */
    put(o, 600 + 4, 0x1a, 1);       /* STB_GLOBAL, STT_GNU_IFUNC */
    put(o, 600 + 6, 2, 2);          /* defined */
    assert_int_equal(check(o, OBJ, "IFUNC"), 1);
}

static void tables_outside_are_refused(void **state)
{
    (void)state;
    unsigned char o[OBJ];
    make(o, NAME_TEXT, 1, 16, 0);
    assert_int_equal(check(o, 40, "64-bit"), -1);
    put(o, 0x3C, 60000, 2); /* more section headers than bytes */
    assert_int_equal(check(o, OBJ, "outside"), -1);
    make(o, NAME_TEXT, 2, 1ull << 62, 24); /* a symbol table past the end */
    assert_int_equal(check(o, OBJ, "outside"), -1);
    make(o, NAME_TEXT, 1, 16, 0);
    put(o, 64 + 64 + 24, OBJ - 4, 8); /* the names past the end */
    assert_int_equal(check(o, OBJ, "outside"), -1);
    o[4] = 1; /* 32-bit */
    assert_int_equal(check(o, OBJ, "64-bit"), -1);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(a_clean_object_passes),
        cmocka_unit_test(initialisers_are_found),
        cmocka_unit_test(dynamic_tags_are_found),
        cmocka_unit_test(resolvers_are_found),
        cmocka_unit_test(tables_outside_are_refused),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
