"""The validator names the rule each broken file breaks (SPEC.md 'Valid input')."""
import pytest

from reference import parse, solve_text

SAMPLE = b"....\n##..\n.#..\n.#..\n\n....\n####\n....\n....\n\n#...\n###.\n....\n....\n\n....\n##..\n.##.\n....\n"
O_BLOCK = b"....\n.##.\n.##.\n....\n"


def test_seed_sample_answer():
    assert solve_text(SAMPLE) == "DDAA\nCDDA\nCCCA\nBBBB\n"


@pytest.mark.parametrize(
    "data, rule",
    [
        (b"", "empty"),
        (b"\n\n\n", "empty"),
        (O_BLOCK.replace(b"\n", b"\r\n"), "crlf"),
        (O_BLOCK.replace(b".##.", b".#x.", 1), "char"),
        (O_BLOCK[:-1], "final_newline"),
        (b"\n" + O_BLOCK, "leading_empty_line"),
        (O_BLOCK + b"\n\n" + O_BLOCK, "separator"),
        (O_BLOCK + O_BLOCK, "block_height"),
        (b"....\n.##.\n.##.\n", "block_height"),
        (b"....\n.##..\n.##.\n....\n", "line_length"),
        (b"....\n.###\n.##.\n....\n", "hash_count"),
        (b"##..\n....\n..##\n....\n", "connectivity"),
        (b"#...\n.#..\n..#.\n...#\n", "connectivity"),
        (b"\n".join([O_BLOCK] * 27), "piece_count"),
        (O_BLOCK + b"\n\n", "trailing_empty_line"),
    ],
)
def test_rejections_name_the_rule(data, rule):
    parsed = parse(data)
    assert parsed.rejection is not None and parsed.rejection.rule == rule
    assert not parsed.disputed


def test_single_trailing_empty_line_is_disputed():
    parsed = parse(O_BLOCK + b"\n")
    assert parsed.rejection.rule == "trailing_empty_line"
    assert parsed.disputed == ("trailing_empty_line",)
    assert solve_text(O_BLOCK + b"\n") == "error\n"
    assert solve_text(O_BLOCK + b"\n", accept_disputed=True) == "AA\nAA\n"


def test_26_pieces_accepted():
    parsed = parse(b"\n".join([O_BLOCK] * 26))
    assert parsed.valid and len(parsed.pieces) == 26
