"""The USB host side of the emulated Pico (rp2040py), shared by
simulator/pico.py (`python -m simulator script --target pico`) and
host_tools/emulator.py: rp2040py's own CDC host, corrected where it does
what no real host does."""


def host_waits_with_no_data(device):
    """Make the emulated USB host hold the CDC's bulk OUT endpoint while it
    has nothing to send, as a real host does (it sends an OUT packet only
    with data: the device's armed buffer just waits).

    rp2040py 0.3.6's USBCDC answers every OUT buffer the firmware arms at
    once, with whatever its send FIFO holds: with nothing to send, a
    zero-length packet 10 us later. TinyUSB takes it, re-arms the buffer,
    and gets the next one: an interrupt every few microseconds for as long
    as the console is quiet. The chip then never sleeps (its `time.sleep_ms`
    WFE wakes at once) and spends about a quarter of its cycles in the USB
    stack (a PC profile of nehren/01: 0.0% of samples idle, 26% in
    tud_/dcd_/hw_endpoint code), which a board on a real host does not. Held
    here instead: the request is kept and served when bytes come
    (`send_serial_byte`), from an alarm at the same emulated instant, so
    that a line pushed byte by byte while the chip is paused goes out in one
    packet as from a real host. Measured: the chip idles 57% of nehren/01's
    emulated time and the emulator runs it about 2.5 times faster (idle
    time is skipped to the next alarm), with the same output.

    Only for a chip whose host lives on emulated time (the script harness,
    the raw REPL of host_tools.emulator): an idle chip's emulated time then
    runs many times faster than the wall clock. A host on the wall clock
    (mpremote over `rp2040py micropython --pty`) would see the firmware's
    own timeouts expire before it can answer: `make dev`'s mount waits 1 000
    emulated ms for each reply ("timeout waiting for remote"), so
    tests/pico/test_emulated_flash.py keeps rp2040py's host, whose storm
    keeps the emulated clock slower than the wall clock."""
    cdc = device.cdc
    usb = cdc.usb
    serve = usb.on_endpoint_read  # USBCDC's own: hands over min(size, FIFO) bytes
    send = cdc.send_serial_byte
    held = []  # (endpoint, size) of OUT buffers armed while the FIFO was empty

    def on_endpoint_read(endpoint, size):
        if endpoint and endpoint == cdc._out_endpoint and not cdc.tx_fifo.item_count:
            held.append((endpoint, size))
            return
        serve(endpoint, size)

    def serve_held():
        while held and cdc.tx_fifo.item_count:
            endpoint, size = held.pop(0)
            if endpoint == cdc._out_endpoint:
                serve(endpoint, size)

    alarm = device.mcu.clock.create_alarm(serve_held)

    def send_serial_byte(b):
        send(b)
        if held:
            alarm.schedule(0)

    reset = usb.on_reset

    def on_reset():  # the chip dropped off the bus: its armed buffers are gone
        del held[:]
        alarm.cancel()
        if reset is not None:
            reset()

    usb.on_endpoint_read = on_endpoint_read
    usb.on_reset = on_reset
    cdc.send_serial_byte = send_serial_byte
    return device

