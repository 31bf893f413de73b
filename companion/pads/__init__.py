"""Button pads: a 6-button pad per seat that answers the table's prompts and only blinks back.

buttons.py   the prompt of a seat mapped to buttons 1..6; presses handed to the table's loop
lamp.py      a pad's LED driven from the loop: blinking when asked, solid when accepted, double blink when refused
gpio.py      pads wired to the Pi's header (gpiozero), with our own debounce
serial.py    the USB pad hub (pyserial) speaking hardware/PROTOCOL.md; protocol.py its lines; registry.py which
             hub pad is whose; hub_state.py what is on the hub's port, published for `companion doctor`
config.py    the pads config (TOML)
flood.py     a stuck pad ignored on its device's thread; refused presses told once per pad per few seconds
fake_hub.py  a hub on a pty with faults on demand, for tests and the bench; bench.py press-to-stored latency
"""
