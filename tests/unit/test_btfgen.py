#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Unit tests of kmod/compat/btfgen.py on hand-made BTF blobs.

Each test builds a small BTF describing C types, generates the header and
compiles it with the host compiler: the generated offset and size
assertions must hold for a correct description and fail for a wrong one.
"""
import os
import struct
import subprocess
import sys
import tempfile
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "..", "kmod", "compat"))
import btfgen  # noqa: E402


class Blob:
    """Tiny BTF writer: add types, get the encoded blob."""

    def __init__(self):
        self.strs = b"\0"
        self.types = b""
        self.n = 0

    def s(self, text):
        if not text:
            return 0
        off = len(self.strs)
        self.strs += text.encode() + b"\0"
        return off

    def add(self, kind, name, vlen, size_or_type, extra=b"", kflag=0):
        info = (kflag << 31) | (kind << 24) | vlen
        self.types += struct.pack("<III", self.s(name), info, size_or_type) + extra
        self.n += 1
        return self.n

    def int_(self, name, size, bool_=False):
        enc = (4 if bool_ else 1) << 24 | size * 8
        return self.add(1, name, 0, size, struct.pack("<I", enc))

    def struct_(self, name, size, members, kflag=0):
        extra = b""
        for mname, mtype, off in members:
            extra += struct.pack("<III", self.s(mname), mtype, off)
        return self.add(4, name, len(members), size, extra, kflag)

    def encode(self):
        hdr = struct.pack("<HBBIIIII", 0xEB9F, 1, 0, 24, 0, len(self.types),
                          len(self.types), len(self.strs))
        return hdr + self.types + self.strs


def sample(wrong_offset=False):
    b = Blob()
    i32 = b.int_("int", 4)
    u32 = b.int_("unsigned int", 4)
    char = b.int_("char", 1)
    # forward ids are fine in BTF; ids: 4 = struct demo
    demo_ptr = 5
    proto = 6
    fnptr = 7
    arr = 8
    const_char = 9
    cptr = 10
    members = [("a", i32, 0), ("flag", u32, (3 << 24) | 32),
               ("fn", fnptr, 64), ("name", arr, 128),
               ("label", cptr, 192 if not wrong_offset else 200)]
    b.struct_("demo", 32, members, kflag=1)                   # 4
    b.add(2, "", 0, 4)                                        # 5 ptr demo
    b.add(13, "", 2, i32, struct.pack("<IIII", 0, demo_ptr, 0, i32))  # 6
    b.add(2, "", 0, proto)                                    # 7 fn ptr
    b.add(3, "", 0, 0, struct.pack("<III", char, i32, 8))     # 8 char[8]
    b.add(10, "", 0, char)                                    # 9 const char
    b.add(2, "", 0, const_char)                               # 10
    b.add(12, "demo_call", 1, proto)                          # 11 func
    return b.encode()


SPEC = "struct demo\nfunc demo_call\nstruct? missing_one\n"


class BTFGenTest(unittest.TestCase):
    def generate(self, blob):
        tmp = tempfile.mkdtemp()
        with open(os.path.join(tmp, "spec"), "w") as f:
            f.write(SPEC)
        btf = btfgen.BTF(blob)
        text = btfgen.generate(btf, btfgen.parse_spec(os.path.join(tmp, "spec")), "test")
        return tmp, text

    def compile(self, tmp, text):
        os.makedirs(os.path.join(tmp, "linux"), exist_ok=True)
        with open(os.path.join(tmp, "linux", "stddef.h"), "w") as f:
            f.write("#include <stddef.h>\n")
        path = os.path.join(tmp, "gen.h")
        with open(path, "w") as f:
            f.write(text)
        return subprocess.run(["cc", "-std=gnu11", "-fsyntax-only", "-I", tmp,
                               "-x", "c", path], capture_output=True, text=True)

    def test_renders_members(self):
        _, text = self.generate(sample())
        self.assertIn("int a;", text)
        self.assertIn("unsigned int flag:3;", text)
        self.assertIn("int (*fn)(struct demo *, int);", text)
        self.assertIn("char name[8];", text)
        self.assertIn("const char *label;", text)
        self.assertIn("extern int demo_call(struct demo *, int);", text)
        self.assertNotIn("missing_one", text)

    def test_assertions_hold(self):
        tmp, text = self.generate(sample())
        r = self.compile(tmp, text)
        self.assertEqual(r.returncode, 0, r.stderr)
        self.assertIn('offsetof(struct demo, label) == 24', text)

    def test_wrong_layout_fails_to_compile(self):
        tmp, text = self.generate(sample(wrong_offset=True))
        r = self.compile(tmp, text)
        self.assertNotEqual(r.returncode, 0)
        self.assertIn("offset of demo.label", r.stderr)

    def test_missing_required_type(self):
        btf = btfgen.BTF(sample())
        with self.assertRaises(btfgen.BTFError):
            btfgen.generate(btf, [("struct", "nope", False)], "test")

    def test_bad_magic(self):
        with self.assertRaises(btfgen.BTFError):
            btfgen.BTF(b"\0" * 32)

    def test_spec_errors_name_the_line(self):
        tmp = tempfile.mkdtemp()
        p = os.path.join(tmp, "spec")
        with open(p, "w") as f:
            f.write("struct ok\nwidget foo\n")
        with self.assertRaisesRegex(btfgen.BTFError, "spec:2: unknown kind"):
            btfgen.parse_spec(p)

    def test_elf_section_extraction(self):
        blob = sample()
        # Minimal ELF64 with a .shstrtab and a .BTF section.
        shstr = b"\0.shstrtab\0.BTF\0"
        data_off = 64
        btf_off = data_off + len(shstr)
        sh_off = (btf_off + len(blob) + 7) & ~7
        elf = bytearray(sh_off + 3 * 64)
        elf[0:16] = b"\x7fELF\x02\x01\x01" + b"\0" * 9
        struct.pack_into("<Q", elf, 0x28, sh_off)
        struct.pack_into("<HHH", elf, 0x3A, 64, 3, 1)
        elf[data_off:data_off + len(shstr)] = shstr
        elf[btf_off:btf_off + len(blob)] = blob
        struct.pack_into("<IIQQQQ", elf, sh_off + 64, 1, 3, 0, 0, data_off, len(shstr))
        struct.pack_into("<IIQQQQ", elf, sh_off + 128, 11, 1, 0, 0, btf_off, len(blob))
        self.assertEqual(btfgen.elf_btf(bytes(elf)), blob)


if __name__ == "__main__":
    unittest.main(verbosity=2)
