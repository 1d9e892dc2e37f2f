"""A small, fixed set of probes for the zoo: valid files, invalid files and the
usage / file-error invocations.  Used to show that each mutant behaves differently
from base.c and that each correct variant behaves exactly like `fillit-ref`.

Each probe is (name, argv-builder input): `files` is a dict name -> bytes written
into a folder, `argv` the arguments after the program (names refer to files in
that folder; "<missing>" and "<dir>" are special).
"""
from __future__ import annotations

import random
from dataclasses import dataclass

from generators.text import to_file
from reference.shapes import SHAPE_BY_NAME, SHAPES


@dataclass(frozen=True)
class Probe:
    name: str
    argv: tuple[str, ...]  # file names inside the probe folder, or "<missing>", "<dir>"
    content: bytes | None = None  # content of the file named like the probe, when argv uses it
    accept_disputed_differs: bool = False  # the answer depends on the disputed trailing-line rule


def _pieces(rng: random.Random, count: int):
    return [rng.choice(SHAPES) for _ in range(count)]


# A 26-piece file that the plain reference solves quickly (the minimal side is the first tried).
def _big_file() -> bytes:
    return to_file(_pieces(random.Random(3), 26), random.Random(1))


def _file(name: str, content: bytes, disputed: bool = False) -> Probe:
    return Probe(name, (name,), content, disputed)


def probes(valid_count: int = 24, seed: int = 20240108) -> list[Probe]:
    rng = random.Random(seed)
    out: list[Probe] = []
    S = SHAPE_BY_NAME
    sample = (b"....\n##..\n.#..\n.#..\n\n....\n####\n....\n....\n\n"
              b"#...\n###.\n....\n....\n\n....\n##..\n.##.\n....\n")
    out.append(_file("sample", sample))
    for name in ("I_vertical", "I_horizontal", "O", "T_down", "L_0", "S_vertical"):
        out.append(_file(f"one_{name}", to_file([S[name]], rng)))
    out.append(_file("five_Iv", to_file([S["I_vertical"]] * 5, rng)))
    out.append(_file("four_Iv", to_file([S["I_vertical"]] * 4, rng)))
    out.append(_file("mixed_pairs", to_file([S["T_up"], S["J_90"], S["T_up"], S["J_90"]], rng)))
    for index in range(valid_count):
        out.append(_file(f"valid_{index:02d}", to_file(_pieces(rng, rng.randint(1, 10)), rng)))
    big = _big_file()
    out.append(_file("valid_26", big))
    extra = to_file([S["O"]], None)
    out.append(_file("pieces_27", big + b"\n" + extra))
    three = to_file(_pieces(rng, 3), rng)
    b3 = three.split(b"\n\n")
    disconnected = b"##..\n....\n##..\n...."  # b3 parts have no final newline but the last
    invalid = {
        "empty": b"",
        "only_newline": b"\n",
        "trailing_empty_line": three + b"\n",
        "two_trailing_empty_lines": three + b"\n\n",
        "no_final_newline": three[:-1],
        "crlf": three.replace(b"\n", b"\r\n"),
        "crlf_one_block": to_file([S["O"]], None).replace(b"\n", b"\r\n"),
        "bad_char": three.replace(b"#", b"X", 1),
        "space": three.replace(b".", b" ", 1),
        "five_hashes": b"\n\n".join([b"##..\n##..\n#...\n...."] + b3[1:]),
        "three_hashes": b"\n\n".join([b"##..\n#...\n....\n...."] + b3[1:]),
        "disconnected": b"\n\n".join(b3[:1] + [disconnected] + b3[2:]),
        "disconnected_alone": disconnected + b"\n",
        "diagonal": b"#...\n.#..\n..#.\n...#\n",
        "five_line_block": b3[0] + b"\n....\n\n" + b"\n\n".join(b3[1:]),
        "five_line_block_last": three + b"....\n",
        "three_line_block": b"##..\n##..\n....\n",
        "long_line": b"##...\n##..\n....\n....\n",
        "short_line": b"##.\n##..\n....\n....\n",
        "double_separator": b3[0] + b"\n\n\n" + b"\n\n".join(b3[1:]),
        "leading_empty_line": b"\n" + three,
        "trailing_text": three + b"\nabc\n",
        "trailing_dots_line": three + b"\n....\n",
        "huge": (to_file([S["O"]], None) + b"\n") * 2000,
    }
    for name, content in invalid.items():
        out.append(_file(name, content, disputed=name == "trailing_empty_line"))
    out.append(Probe("no_args", ()))
    out.append(Probe("two_args", ("sample", "sample")))
    out.append(Probe("three_args", ("sample", "sample", "sample")))
    out.append(Probe("missing_file", ("<missing>",)))
    out.append(Probe("directory", ("<dir>",)))
    return out
