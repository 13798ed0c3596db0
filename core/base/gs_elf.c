/* SPDX-License-Identifier: MIT */
#include "gs_elf.h"

#include <stdint.h>
#include <stdio.h>
#include <string.h>

/* Every read is bounds-checked: the object is the compiler's, from a file
 * nobody has read. Little-endian fields, read byte by byte. */
struct elf {
    const unsigned char *d;
    size_t len;
    int bad;
};

static uint64_t rd(struct elf *f, uint64_t off, unsigned bytes)
{
    uint64_t v = 0;
    if (off > f->len || bytes > f->len - off) {
        f->bad = 1;
        return 0;
    }
    for (unsigned i = 0; i < bytes; ++i)
        v |= (uint64_t)f->d[off + i] << (8 * i);
    return v;
}

/* A table of n entries of `ent` bytes at off lies inside the object. */
static int table_fits(const struct elf *f, uint64_t off, uint64_t n, uint64_t ent)
{
    return ent && off <= f->len && n <= (f->len - off) / ent;
}

enum {
    SHT_SYMTAB = 2, SHT_RELA = 4, SHT_REL = 9, SHT_DYNSYM = 11, SHT_INIT_ARRAY = 14,
    SHT_FINI_ARRAY = 15, SHT_PREINIT_ARRAY = 16, PT_DYNAMIC = 2, STT_GNU_IFUNC = 10,
    EM_X86_64 = 62, EM_AARCH64 = 183, R_X86_64_IRELATIVE = 37, R_AARCH64_IRELATIVE = 1032
};

static int found(char *why, size_t size, const char *what)
{
    snprintf(why, size, "%s", what);
    return 1;
}

static int sections(struct elf *f, char *why, size_t size)
{
    static const char *const names[] = {".init",         ".fini",  ".init_array", ".fini_array",
                                        ".preinit_array", ".ctors", ".dtors"};
    const uint64_t shoff = rd(f, 0x28, 8), shent = rd(f, 0x3A, 2), shnum = rd(f, 0x3C, 2);
    const uint64_t shstrndx = rd(f, 0x3E, 2), machine = rd(f, 0x12, 2);
    if (f->bad || (shnum && (shent < 64 || !table_fits(f, shoff, shnum, shent))))
        return -1;
    uint64_t stroff = 0, strsize = 0;
    if (shstrndx < shnum) {
        stroff = rd(f, shoff + shstrndx * shent + 24, 8);
        strsize = rd(f, shoff + shstrndx * shent + 32, 8);
        if (f->bad || stroff > f->len || strsize > f->len - stroff)
            return -1;
    }
    for (uint64_t i = 0; i < shnum; ++i) {
        const uint64_t h = shoff + i * shent;
        const uint64_t name = rd(f, h, 4), type = rd(f, h + 4, 4);
        const uint64_t off = rd(f, h + 24, 8), sz = rd(f, h + 32, 8), ent = rd(f, h + 56, 8);
        const char *s = name < strsize ? (const char *)f->d + stroff + name : "";
        const size_t room = name < strsize ? (size_t)(strsize - name) : 0;
        for (size_t k = 0; sz && k < sizeof names / sizeof names[0]; ++k)
            if (room > strlen(names[k]) && strcmp(s, names[k]) == 0) {
                snprintf(why, size, "its %s section runs code when it is loaded or unloaded "
                                    "(a constructor or destructor)", names[k]);
                return 1;
            }
        if (sz && (type == SHT_INIT_ARRAY || type == SHT_FINI_ARRAY || type == SHT_PREINIT_ARRAY))
            return found(why, size, "a section of initialisers or finalisers (a constructor or "
                                    "destructor)");
        if (type == SHT_SYMTAB || type == SHT_DYNSYM) {
            if (sz && (ent < 24 || !table_fits(f, off, sz / ent, ent)))
                return -1;
            for (uint64_t k = 0; sz && k < sz / ent; ++k)
                if ((rd(f, off + k * ent + 4, 1) & 0xf) == STT_GNU_IFUNC &&
                    rd(f, off + k * ent + 6, 2) != 0)
                    return found(why, size, "an IFUNC symbol, whose resolver runs when it is "
                                            "loaded");
        }
        if (type == SHT_RELA || type == SHT_REL) {
            const uint64_t min = type == SHT_RELA ? 24 : 16;
            if (sz && (ent < min || !table_fits(f, off, sz / ent, ent)))
                return -1;
            for (uint64_t k = 0; sz && k < sz / ent; ++k) {
                const uint64_t r = rd(f, off + k * ent + 8, 4);
                if ((machine == EM_X86_64 && r == R_X86_64_IRELATIVE) ||
                    (machine == EM_AARCH64 && r == R_AARCH64_IRELATIVE))
                    return found(why, size, "an IRELATIVE relocation, whose resolver runs when "
                                            "it is loaded");
            }
        }
    }
    return f->bad ? -1 : 0;
}

/* The dynamic segment: what the loader itself reads. */
static int dynamic(struct elf *f, char *why, size_t size)
{
    const uint64_t phoff = rd(f, 0x20, 8), phent = rd(f, 0x36, 2), phnum = rd(f, 0x38, 2);
    if (f->bad || (phnum && (phent < 56 || !table_fits(f, phoff, phnum, phent))))
        return -1;
    for (uint64_t i = 0; i < phnum; ++i) {
        const uint64_t h = phoff + i * phent;
        if (rd(f, h, 4) != PT_DYNAMIC)
            continue;
        const uint64_t off = rd(f, h + 8, 8), sz = rd(f, h + 32, 8);
        if (f->bad || !table_fits(f, off, sz / 16, 16))
            return -1;
        for (uint64_t k = 0; k < sz / 16; ++k) {
            const uint64_t tag = rd(f, off + 16 * k, 8);
            if (tag == 0)
                break;
            if (tag == 12 || tag == 13 || tag == 25 || tag == 26 || tag == 32)
                return found(why, size, "its dynamic section names code the loader runs "
                                        "(DT_INIT, DT_FINI or an array of them)");
        }
    }
    return 0;
}

int gs_elf_load_time_code(const void *data, size_t len, char *why, size_t size)
{
    struct elf f = {data, len, 0};
    if (len < 64 || memcmp(data, "\177ELF", 4) != 0 || f.d[4] != 2 || f.d[5] != 1) {
        snprintf(why, size, "not a 64-bit little-endian ELF object");
        return -1;
    }
    int r = sections(&f, why, size);
    if (r == 0)
        r = dynamic(&f, why, size);
    if (r < 0)
        snprintf(why, size, "a table of the ELF object lies outside it");
    return r;
}
