#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Generate the kernel-private block-layer types our schedulers need from BTF.

Debian's (and most distros') linux-headers packages do not ship the private
block/*.h headers that define struct elevator_type and friends.  The kernel's
BTF describes those types exactly, so this tool reads BTF and writes a C
header that defines only the types and prototypes named in a spec file, plus
a compile-time assertion of every member offset, every embedded member size
and every struct size.  If the public kernel headers used for the build ever
disagree with the running kernel's layout, the build fails instead of the
kernel crashing.

BTF sources, in the order the Makefile tries them:
  * raw BTF (/sys/kernel/btf/vmlinux),
  * an ELF vmlinux with a .BTF section (shipped in Debian's 6.12+ headers),
  * a compressed bzImage (/boot/vmlinuz-*), decompressed like the kernel's
    scripts/extract-vmlinux does.

Spec file lines (# starts a comment):
  struct NAME | union NAME | enum NAME | typedef NAME | func NAME
A trailing '?' on the kind (struct? NAME) marks the entry optional: it is
emitted only if the kernel has it.  Each emitted optional entry defines
XD_HAVE_<KIND>_<NAME> so code can test for it.
"""

import argparse
import os
import struct
import subprocess
import sys
import zlib

KIND = {
    0: "unknown", 1: "int", 2: "ptr", 3: "array", 4: "struct", 5: "union",
    6: "enum", 7: "fwd", 8: "typedef", 9: "volatile", 10: "const",
    11: "restrict", 12: "func", 13: "func_proto", 14: "var", 15: "datasec",
    16: "float", 17: "decl_tag", 18: "type_tag", 19: "enum64",
}


class BTFError(Exception):
    pass


class Type:
    __slots__ = ("id", "kind", "name", "size", "ref", "vlen", "kflag",
                 "members", "params", "values", "nelems", "elem")

    def __init__(self, tid):
        self.id = tid
        self.name = ""
        self.size = 0
        self.ref = 0
        self.vlen = 0
        self.kflag = 0
        self.members = []
        self.params = []
        self.values = []
        self.nelems = 0
        self.elem = 0


class BTF:
    def __init__(self, data):
        if len(data) < 24:
            raise BTFError("BTF blob too short")
        magic, ver, _flags, hdr_len = struct.unpack_from("<HBBI", data, 0)
        if magic != 0xEB9F:
            raise BTFError("bad BTF magic (big-endian BTF is not supported)")
        if ver != 1:
            raise BTFError("unsupported BTF version %d" % ver)
        type_off, type_len, str_off, str_len = struct.unpack_from("<IIII", data, 8)
        base = hdr_len
        self.strs = data[base + str_off:base + str_off + str_len]
        self.types = [Type(0)]
        self.types[0].kind = "void"
        self._parse(data[base + type_off:base + type_off + type_len])
        self.by_name = {}
        for t in self.types[1:]:
            if t.name:
                self.by_name.setdefault((t.kind, t.name), t)

    def _str(self, off):
        end = self.strs.index(b"\0", off)
        return self.strs[off:end].decode()

    def _parse(self, buf):
        pos = 0
        tid = 1
        while pos < len(buf):
            name_off, info, size_or_type = struct.unpack_from("<III", buf, pos)
            pos += 12
            t = Type(tid)
            kind = KIND.get((info >> 24) & 0x1F)
            if kind is None or kind == "unknown":
                raise BTFError("unknown BTF kind %d" % ((info >> 24) & 0x1F))
            t.kind = kind
            t.vlen = info & 0xFFFF
            t.kflag = info >> 31
            t.name = self._str(name_off)
            t.size = t.ref = size_or_type
            if kind == "int":
                pos += 4
            elif kind == "array":
                t.elem, _idx, t.nelems = struct.unpack_from("<III", buf, pos)
                pos += 12
            elif kind in ("struct", "union"):
                for _ in range(t.vlen):
                    mname, mtype, moff = struct.unpack_from("<III", buf, pos)
                    pos += 12
                    if t.kflag:
                        bits, off = moff >> 24, moff & 0xFFFFFF
                    else:
                        bits, off = 0, moff
                    t.members.append((self._str(mname), mtype, off, bits))
            elif kind == "enum":
                for _ in range(t.vlen):
                    vname, val = struct.unpack_from("<Ii", buf, pos)
                    pos += 8
                    t.values.append((self._str(vname), val))
            elif kind == "enum64":
                for _ in range(t.vlen):
                    vname, lo, hi = struct.unpack_from("<III", buf, pos)
                    pos += 12
                    t.values.append((self._str(vname), (hi << 32) | lo))
            elif kind == "func_proto":
                for _ in range(t.vlen):
                    pname, ptype = struct.unpack_from("<II", buf, pos)
                    pos += 8
                    t.params.append((self._str(pname), ptype))
            elif kind == "var":
                pos += 4
            elif kind == "datasec":
                pos += 12 * t.vlen
            elif kind == "decl_tag":
                pos += 4
            self.types.append(t)
            tid += 1

    def find(self, kind, name):
        return self.by_name.get((kind, name))

    # --- C rendering -----------------------------------------------------

    def skip_mods(self, tid):
        """Follow typedef-free modifiers (const, volatile, type tags)."""
        t = self.types[tid]
        while t.kind in ("const", "volatile", "restrict", "type_tag"):
            t = self.types[t.ref]
        return t

    def decl(self, tid, inner="", indent=1):
        """Render type TID around declarator INNER, C style."""
        t = self.types[tid]
        k = t.kind
        sp = " " + inner if inner and not inner.startswith("[") else inner
        if k == "void":
            return "void" + sp
        if k in ("int", "float", "typedef"):
            return t.name + sp
        if k in ("struct", "union"):
            if t.name:
                return "%s %s%s" % (k, t.name, sp)
            return self.body(t, indent) + sp
        if k in ("enum", "enum64"):
            if t.name:
                return "enum %s%s" % (t.name, sp)
            return self.enum_body(t, indent) + sp
        if k == "fwd":
            return "%s %s%s" % ("union" if t.kflag else "struct", t.name, sp)
        if k in ("const", "volatile", "restrict"):
            target = self.types[t.ref]
            if target.kind == "ptr":
                return self.decl(t.ref, k + " " + inner if inner else k, indent)
            return k + " " + self.decl(t.ref, inner, indent)
        if k == "type_tag":
            return self.decl(t.ref, inner, indent)
        if k == "ptr":
            target = self.skip_mods(t.ref)
            if target.kind in ("array", "func_proto"):
                return self.decl(t.ref, "(*" + inner + ")", indent)
            return self.decl(t.ref, "*" + inner, indent)
        if k == "array":
            return self.decl(t.elem, inner + "[%d]" % t.nelems, indent)
        if k == "func_proto":
            return self.decl(t.ref, inner + "(" + self.params(t) + ")", indent)
        raise BTFError("cannot render BTF kind %s" % k)

    def params(self, proto):
        out = []
        for pname, ptype in proto.params:
            if ptype == 0 and not pname:
                out.append("...")
            else:
                out.append(self.decl(ptype, pname))
        return ", ".join(out) if out else "void"

    def body(self, t, indent):
        pad = "\t" * indent
        lines = ["%s {" % t.kind if not t.name else "%s %s {" % (t.kind, t.name)]
        for mname, mtype, _off, bits in t.members:
            d = self.decl(mtype, mname, indent + 1)
            if bits:
                d += ":%d" % bits
            lines.append("%s%s;" % (pad, d))
        lines.append("\t" * (indent - 1) + "}")
        return "\n".join(lines)

    def enum_body(self, t, indent):
        pad = "\t" * indent
        lines = ["enum %s{" % (t.name + " " if t.name else "")]
        for vname, val in t.values:
            lines.append("%s%s = %d," % (pad, vname, val))
        lines.append("\t" * (indent - 1) + "}")
        return "\n".join(lines)

    # --- dependency walking ----------------------------------------------

    def pointed_records(self, tid, seen, out, by_value=True):
        """Collect named struct/union types reached through pointers."""
        if (tid, by_value) in seen:
            return
        seen.add((tid, by_value))
        t = self.types[tid]
        k = t.kind
        if k in ("struct", "union", "fwd"):
            if t.name and not by_value:
                out.add(("union" if (k == "union" or (k == "fwd" and t.kflag))
                         else "struct", t.name))
            if k != "fwd" and (by_value or not t.name):
                for _n, mtype, _o, _b in t.members:
                    self.pointed_records(mtype, seen, out, not t.name or by_value)
            return
        if k == "ptr":
            self.pointed_records(t.ref, seen, out, False)
        elif k == "array":
            self.pointed_records(t.elem, seen, out, by_value)
        elif k in ("const", "volatile", "restrict", "type_tag"):
            self.pointed_records(t.ref, seen, out, by_value)
        elif k == "func_proto":
            self.pointed_records(t.ref, seen, out, False)
            for _n, ptype in t.params:
                self.pointed_records(ptype, seen, out, False)


def load_blob(path):
    with open(path, "rb") as f:
        data = f.read()
    return data


def elf_btf(data):
    """Return the .BTF section of a little-endian ELF64 file, or None."""
    if data[:4] != b"\x7fELF" or data[4] != 2:
        return None
    shoff = struct.unpack_from("<Q", data, 0x28)[0]
    shentsize, shnum, shstrndx = struct.unpack_from("<HHH", data, 0x3A)
    def sh(i):
        return struct.unpack_from("<IIQQQQ", data, shoff + i * shentsize)
    strtab = sh(shstrndx)
    names = data[strtab[4]:strtab[4] + strtab[5]]
    for i in range(shnum):
        name_off, _type, _flags, _addr, off, size = sh(i)
        name = names[name_off:names.index(b"\0", name_off)]
        if name == b".BTF":
            return data[off:off + size]
    return None


def decompress_at(data, off, magic):
    """Try to decompress a kernel payload starting at OFF."""
    # Imported here: minimal Pythons (python3-minimal) lack bz2 and lzma,
    # and raw or ELF BTF needs neither.
    try:
        import bz2
        import lzma
    except ImportError:
        bz2 = lzma = None
    chunk = data[off:]
    if lzma is None and magic in ("xz", "lzma", "bzip2"):
        return None
    try:
        if magic == "gzip":
            return zlib.decompressobj(16 + zlib.MAX_WBITS).decompress(chunk)
        if magic == "xz":
            return lzma.LZMADecompressor(lzma.FORMAT_XZ).decompress(chunk)
        if magic == "lzma":
            return lzma.LZMADecompressor(lzma.FORMAT_ALONE).decompress(chunk)
        if magic == "bzip2":
            return bz2.BZ2Decompressor().decompress(chunk)
        if magic in ("zstd", "lz4"):
            tool = ["zstd", "-dcq"] if magic == "zstd" else ["lz4", "-dcq"]
            p = subprocess.run(tool, input=chunk, stdout=subprocess.PIPE,
                               stderr=subprocess.DEVNULL, check=False)
            return p.stdout
    except Exception:  # any corrupt or false-positive payload
        return None
    return None


MAGICS = [
    ("gzip", b"\x1f\x8b\x08"), ("xz", b"\xfd7zXZ\x00"),
    ("zstd", b"\x28\xb5\x2f\xfd"), ("bzip2", b"BZh"),
    ("lzma", b"\x5d\x00\x00\x00"), ("lz4", b"\x02\x21\x4c\x18"),
]


def extract_btf(path):
    data = load_blob(path)
    if data[:2] == b"\x9f\xeb":
        return data
    btf = elf_btf(data)
    if btf is not None:
        return btf
    for magic, sig in MAGICS:
        start = 0
        while True:
            off = data.find(sig, start)
            if off < 0:
                break
            start = off + 1
            out = decompress_at(data, off, magic)
            if out and out[:4] == b"\x7fELF":
                btf = elf_btf(out)
                if btf is not None:
                    return btf
    raise BTFError("%s: no BTF found (not raw BTF, ELF with .BTF or a "
                   "compressed kernel image)" % path)


def parse_spec(path):
    entries = []
    with open(path) as f:
        for lineno, line in enumerate(f, 1):
            line = line.split("#", 1)[0].strip()
            if not line:
                continue
            parts = line.split()
            if len(parts) != 2:
                raise BTFError("%s:%d: expected 'KIND NAME'" % (path, lineno))
            kind, name = parts
            optional = kind.endswith("?")
            kind = kind.rstrip("?")
            if kind not in ("struct", "union", "enum", "typedef", "func"):
                raise BTFError("%s:%d: unknown kind '%s'" % (path, lineno, kind))
            entries.append((kind, name, optional))
    return entries


def generate(btf, entries, source):
    out = ["/* SPDX-License-Identifier: GPL-2.0 */",
           "/* Generated by kmod/compat/btfgen.py from %s. Do not edit. */" % source,
           "#ifndef XD_BTF_PRIVATE_H", "#define XD_BTF_PRIVATE_H", "",
           "#include <linux/stddef.h>", ""]
    have = []
    records, enums, typedefs, funcs = [], [], [], []
    for kind, name, optional in entries:
        if kind == "func":
            t = btf.find("func", name)
        elif kind == "enum":
            t = btf.find("enum", name) or btf.find("enum64", name)
        else:
            t = btf.find(kind, name)
        if t is None:
            if optional:
                continue
            raise BTFError("required %s %s not found in BTF" % (kind, name))
        if optional:
            have.append("XD_HAVE_%s_%s" % (kind.upper(), name.upper()))
        {"struct": records, "union": records, "enum": enums,
         "typedef": typedefs, "func": funcs}[kind].append(t)

    for h in have:
        out.append("#define %s 1" % h)
    if have:
        out.append("")

    emitted = {(t.kind, t.name) for t in records}
    fwd, seen = set(), set()
    for t in records + typedefs:
        btf.pointed_records(t.id, seen, fwd, by_value=True)
    for f in funcs:
        btf.pointed_records(f.ref, seen, fwd, by_value=False)
    for kind, name in sorted(fwd):
        out.append("%s %s;" % (kind, name))
    out.append("")

    for t in enums:
        out.append(btf.enum_body(t, 1) + ";")
        out.append("")
    for t in typedefs:
        out.append("typedef %s;" % btf.decl(t.ref, t.name))
    if typedefs:
        out.append("")

    # Records that embed other emitted records must come after them.
    order, placed = [], set()
    def place(t):
        if (t.kind, t.name) in placed:
            return
        placed.add((t.kind, t.name))
        for _n, mtype, _o, _b in t.members:
            m = btf.skip_mods(mtype)
            while m.kind == "array":
                m = btf.skip_mods(m.elem)
            if (m.kind, m.name) in emitted and m is not t:
                place(m)
        order.append(t)
    for t in records:
        place(t)
    for t in order:
        out.append(btf.body(t, 1) + ";")
        out.append("")

    for t in order:
        out.extend(assertions(btf, t, "", 0))
        out.append("")

    for f in funcs:
        proto = btf.types[f.ref]
        out.append("extern %s;" % btf.decl(proto.ref, "%s(%s)" % (f.name, btf.params(proto))))
    out += ["", "#endif /* XD_BTF_PRIVATE_H */", ""]
    return "\n".join(out)


def assertions(btf, t, prefix, base_bits):
    """Offset and size assertions for every named (possibly nested) member."""
    lines = []
    tag = "%s %s" % (t.kind, t.name)
    if not prefix:
        lines.append('_Static_assert(sizeof(%s) == %d, "BTF: size of %s");'
                     % (tag, t.size, tag))
    for mname, mtype, off, bits in t.members:
        if not mname:
            inner = btf.skip_mods(mtype)
            lines += [l.replace("#ROOT#", tag)
                      for l in assertions(btf, inner, "#ROOT#", base_bits + off)]
            continue
        if bits:
            continue
        root = tag if not prefix else "#ROOT#"
        total = base_bits + off
        if total % 8:
            continue
        lines.append('_Static_assert(offsetof(%s, %s) == %d, "BTF: offset of %s.%s");'
                     % (root, mname, total // 8, t.name or "anon", mname))
        msize = type_size(btf, mtype)
        if msize is not None:
            lines.append('_Static_assert(sizeof(((%s *)0)->%s) == %d, "BTF: size of %s.%s");'
                         % (root, mname, msize, t.name or "anon", mname))
    return lines


def type_size(btf, tid):
    t = btf.types[tid]
    while True:
        if t.kind in ("const", "volatile", "restrict", "type_tag", "typedef"):
            t = btf.types[t.ref]
            continue
        break
    if t.kind in ("int", "float", "struct", "union", "enum", "enum64"):
        return t.size
    if t.kind == "ptr":
        return 8
    if t.kind == "array":
        s = type_size(btf, t.elem)
        return None if s is None else s * t.nelems
    return None


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--btf", required=True, action="append",
                    help="BTF source (raw BTF, ELF vmlinux or bzImage); "
                         "repeat to try several, first usable wins")
    ap.add_argument("--spec", required=True, help="list of types to emit")
    ap.add_argument("-o", "--output", required=True)
    args = ap.parse_args()
    errors = []
    for src in args.btf:
        try:
            btf = BTF(extract_btf(src))
            break
        except (OSError, BTFError) as e:
            errors.append(str(e))
    else:
        sys.exit("btfgen: no usable BTF:\n  " + "\n  ".join(errors))
    try:
        text = generate(btf, parse_spec(args.spec), src)
    except BTFError as e:
        sys.exit("btfgen: %s" % e)
    with open(args.output + ".tmp", "w") as f:
        f.write(text)
    os.replace(args.output + ".tmp", args.output)


if __name__ == "__main__":
    main()
