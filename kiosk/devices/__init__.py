"""The kiosk's hardware: stamp artwork, the thermal printer and its durable queue, LEDs, buttons,
systemd notification and the state directory. Each device takes a small frozen settings
dataclass and has a test double (python-escpos Dummy/File, gpiozero MockFactory)."""
