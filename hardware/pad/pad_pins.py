"""Which Pico pins are what (hardware/README.md has the wiring). Edit here to rewire; a pad is one matrix row."""

ROWS = (0, 1, 2, 3, 4, 5)  # GP0..GP5: one row per pad, pads 1..6
COLUMNS = (6, 7, 8, 9, 10, 11)  # GP6..GP11: buttons 1..6, shared by all pads
LEDS = (16, 17, 18, 19, 20, 21)  # GP16..GP21: one LED per pad, pads 1..6
