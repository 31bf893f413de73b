"""The pad hub's line protocol (hardware/PROTOCOL.md): ASCII lines `<payload>*<XX>\\n`, XX the XOR of the payload.

This is the host's side; the firmware has its own small copy (hardware/pad/pad_wire.py) and a test checks that
both agree.
"""

from __future__ import annotations

from dataclasses import dataclass

MAX_LINE = 64  # bytes before the newline; a longer line is garbage
PROTOCOL_MAJOR = 1
MAX_SEQ = 65535
MAX_BOOT = 16  # hex digits of a boot id: hubs of protocol 1.1 send 16 (64 random bits), 1.0 hubs sent 4


class LineError(ValueError):
    """A line that is not the protocol. `checksum` tells a bad checksum from plain garbage (they are counted apart)."""

    def __init__(self, reason: str, checksum: bool = False, version: str | None = None):
        super().__init__(reason)
        self.checksum = checksum
        self.version = version  # a HELLO of a protocol this companion does not speak: its version


def checksum(payload: bytes) -> int:
    value = 0
    for byte in payload:
        value ^= byte
    return value


def frame(payload: str) -> bytes:
    data = payload.encode("ascii")
    return b"%s*%02X\n" % (data, checksum(data))


@dataclass(frozen=True)
class Hello:
    version: str
    pads: int
    boot: str


@dataclass(frozen=True)
class Press:
    pad: int
    button: int
    seq: int


def unframe(line: bytes) -> str:
    """The payload of one line (without its newline); LineError if it is not a well-framed protocol line."""
    line = line.rstrip(b"\r")
    if len(line) > MAX_LINE:
        raise LineError(f"a line of {len(line)} bytes (at most {MAX_LINE})")
    if not line or any(b < 0x20 or b > 0x7E for b in line):
        raise LineError("an empty line or one with bytes that are not printable ASCII")
    payload, star, tail = line.rpartition(b"*")
    if not star or len(tail) != 2:
        raise LineError("no *XX checksum at the end of the line")
    try:
        expected = int(tail, 16)
    except ValueError:
        raise LineError("the checksum is not two hex digits") from None
    if checksum(payload) != expected:
        raise LineError("the checksum does not match the line", checksum=True)
    return payload.decode("ascii")


def parse_hub_line(line: bytes) -> Hello | Press:
    """A line from the hub as a message; LineError (counted, ignored) for anything else."""
    words = unframe(line).split(" ")
    if words[0] == "HELLO" and len(words) == 5 and words[1] == "hub":
        _, _, version, pads, boot = words
        major = version.split(".")[0]
        if not major.isdigit() or int(major) != PROTOCOL_MAJOR:
            raise LineError(f"the hub speaks protocol {version}; this companion speaks {PROTOCOL_MAJOR}.x",
                            version=version[:8])
        return Hello(version, _number(pads, 1, 6, "pads"), _boot(boot))
    if words[0] == "PRESS" and len(words) == 4:
        return Press(_number(words[1], 1, 6, "pad"), _number(words[2], 1, 6, "button"),
                     _number(words[3], 1, MAX_SEQ, "sequence number"))
    raise LineError(f"unknown message {words[0][:8]!r} or wrong number of fields")


def _number(text: str, low: int, high: int, what: str) -> int:
    if not text.isdigit() or not low <= int(text) <= high:
        raise LineError(f"the {what} must be a number from {low} to {high}")
    return int(text)


def _boot(text: str) -> str:
    if not 1 <= len(text) <= MAX_BOOT or any(c not in "0123456789ABCDEFabcdef" for c in text):
        raise LineError(f"the boot id must be 1 to {MAX_BOOT} hex digits")
    return text.upper()


def ask(pad: int) -> bytes:
    return frame(f"ASK {pad}")


def done(pad: int) -> bytes:
    return frame(f"DONE {pad}")


def ok(pad: int, seq: int) -> bytes:
    return frame(f"OK {pad} {seq}")


def no(pad: int, seq: int) -> bytes:
    return frame(f"NO {pad} {seq}")


def sync() -> bytes:
    return frame("SYNC")
