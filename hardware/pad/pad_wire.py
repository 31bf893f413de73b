"""The line protocol of hardware/PROTOCOL.md on the hub's side: `<payload>*<XX>\\n`, XX the XOR of the payload."""

MAX_LINE = 64


def checksum(payload: bytes) -> int:
    value = 0
    for byte in payload:
        value ^= byte
    return value


def frame(payload: str) -> bytes:
    data = payload.encode()
    return data + f"*{checksum(data):02X}\n".encode()


def unframe(line: bytes):
    """The words of a good line, or None for a line with a bad frame or checksum (the hub only counts it)."""
    if line.endswith(b"\r"):
        line = line[:-1]
    star = line.rfind(b"*")
    if star < 0 or len(line) - star != 3 or len(line) > MAX_LINE:
        return None
    payload = line[:star]
    try:
        if int(line[star + 1:].decode(), 16) != checksum(payload):
            return None
        return payload.decode().split(" ")
    except (ValueError, UnicodeError):
        return None
