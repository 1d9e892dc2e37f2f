"""Can this file run here as a program?  An ELF executable for this machine, or a script
that starts with '#!'; anything else (a text file without '#!', an ELF for another
architecture, a shared library, an object file) is refused before grading, since every
case would fail with a diagnosis that has nothing to do with fillit.

An ELF of type ET_DYN is a position-independent executable when it names a program
interpreter (PT_INTERP) or, statically linked, carries DF_1_PIE in DT_FLAGS_1; otherwise
it is a shared library.
"""
from __future__ import annotations

import struct
import sys
from dataclasses import dataclass
from pathlib import Path

ELF_MAGIC = b"\x7fELF"
SHEBANG = b"#!"

ET_REL, ET_EXEC, ET_DYN, ET_CORE = 1, 2, 3, 4
PT_DYNAMIC, PT_INTERP = 2, 3
DT_NULL, DT_FLAGS_1 = 0, 0x6FFFFFFB
DF_1_PIE = 0x08000000

# e_machine values, for messages only.
MACHINE_NAMES = {3: "x86 (32-bit)", 8: "MIPS", 20: "PowerPC", 21: "PowerPC64", 40: "ARM (32-bit)",
                 62: "x86-64", 183: "AArch64", 243: "RISC-V"}
_OTHER_TYPES = {ET_REL: "an object file (.o), not a linked program", ET_CORE: "a core dump, not a program"}


@dataclass(frozen=True)
class ElfHeader:
    bits: int  # 32 or 64
    endian: str  # struct prefix: "<" little, ">" big
    type: int  # e_type
    machine: int  # e_machine
    phoff: int
    phentsize: int
    phnum: int

    @property
    def platform(self) -> tuple[int, int, str]:
        return self.bits, self.machine, self.endian


def read_elf_header(data: bytes) -> ElfHeader | None:
    """The ELF header fields of `data` (a file's first bytes), or None if it is no ELF."""
    if len(data) < 52 or not data.startswith(ELF_MAGIC) or data[4] not in (1, 2) or data[5] not in (1, 2):
        return None
    bits, endian = (32, 64)[data[4] - 1], "<>"[data[5] - 1]
    e_type, machine = struct.unpack_from(endian + "HH", data, 16)
    if bits == 64:
        if len(data) < 64:
            return None
        (phoff,) = struct.unpack_from(endian + "Q", data, 32)
        phentsize, phnum = struct.unpack_from(endian + "HH", data, 54)
    else:
        (phoff,) = struct.unpack_from(endian + "I", data, 28)
        phentsize, phnum = struct.unpack_from(endian + "HH", data, 42)
    return ElfHeader(bits, endian, e_type, machine, phoff, phentsize, phnum)


def _segments(data: bytes, elf: ElfHeader) -> list[tuple[int, bytes]]:
    """(p_type, contents) of each program header that lies inside `data`."""
    out = []
    for k in range(elf.phnum):
        at = elf.phoff + k * elf.phentsize
        if elf.bits == 64 and at + 40 <= len(data):
            (p_type,) = struct.unpack_from(elf.endian + "I", data, at)
            offset, _, _, size = struct.unpack_from(elf.endian + "QQQQ", data, at + 8)
        elif elf.bits == 32 and at + 20 <= len(data):
            p_type, offset, _, _, size = struct.unpack_from(elf.endian + "IIIII", data, at)
        else:
            break
        out.append((p_type, data[offset:offset + size]))
    return out


def _is_pie(data: bytes, elf: ElfHeader) -> bool:
    """An ET_DYN file that runs as a program: it has an interpreter, or DF_1_PIE."""
    entry = struct.Struct(elf.endian + ("qQ" if elf.bits == 64 else "iI"))
    for p_type, contents in _segments(data, elf):
        if p_type == PT_INTERP:
            return True
        if p_type == PT_DYNAMIC:
            for tag, value in entry.iter_unpack(contents[: len(contents) - len(contents) % entry.size]):
                if tag == DT_NULL:
                    break
                if tag == DT_FLAGS_1 and value & DF_1_PIE:
                    return True
    return False


def host_platform() -> tuple[int, int, str] | None:
    """(bits, e_machine, endianness) of this machine, read from the running interpreter."""
    try:
        elf = read_elf_header(Path(sys.executable).resolve().read_bytes()[:64])
    except OSError:
        return None
    return elf.platform if elf is not None else None


def unrunnable_reason(path: Path) -> str | None:
    """Why `path` cannot run here as a program ("is a shared library..."), or None."""
    data = path.read_bytes()
    if data.startswith(SHEBANG):
        return None
    elf = read_elf_header(data)
    if elf is None:
        return "is neither an ELF executable nor a script starting with '#!'"
    host = host_platform()
    if host is not None and elf.platform != host:
        return f"is an ELF file for another machine ({_describe(elf.platform)}; this one is {_describe(host)})"
    if elf.type == ET_EXEC or (elf.type == ET_DYN and _is_pie(data, elf)):
        return None
    if elf.type == ET_DYN:
        return "is a shared library (.so), not a program"
    return f"is {_OTHER_TYPES.get(elf.type, f'an ELF file of type {elf.type}, not a program')}"


def _describe(platform: tuple[int, int, str]) -> str:
    bits, machine, endian = platform
    name = MACHINE_NAMES.get(machine, f"machine {machine}, {bits}-bit")
    return name + (" big-endian" if endian == ">" else "")
