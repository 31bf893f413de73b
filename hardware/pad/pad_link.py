"""The USB serial link: the Pico's stdin/stdout, or any pair of binary streams (a pty in tests)."""

import select
import sys

READ_AT_MOST = 128  # bytes per step, so the keys are still scanned while a host floods the line


class UsbLink:
    def __init__(self, stream_in=None, stream_out=None):
        self.stream_in = stream_in or sys.stdin.buffer
        self.stream_out = stream_out or sys.stdout.buffer
        self.poll = select.poll()
        # MicroPython polls the console through sys.stdin itself; its .buffer gives the raw bytes
        self.poll.register(stream_in or sys.stdin, select.POLLIN)

    def read(self) -> bytes:
        data = b""
        while len(data) < READ_AT_MOST:
            ready = self.poll.poll(0)
            if not ready or not ready[0][1] & select.POLLIN:
                break
            byte = self.stream_in.read(1)
            if not byte:
                break
            data += byte
        return data

    def write(self, data: bytes) -> None:
        self.stream_out.write(data)
