"""The millisecond clock: MicroPython's on the Pico, the shim's fake clock under CPython in tests."""

try:
    from time import sleep_ms, ticks_add, ticks_diff, ticks_ms
except ImportError:  # CPython has no ticks: the tests put hardware/pad/shim on sys.path
    from machine import sleep_ms, ticks_add, ticks_diff, ticks_ms

__all__ = ["sleep_ms", "ticks_add", "ticks_diff", "ticks_ms"]
