# The simulated passage of time the firmware sees through time.ticks_*.
#
# Virtual mode (scripts, tests): time moves only when the firmware sleeps,
# and the firmware runs only while the driver grants it time, so a run is
# exactly repeatable and takes no real time. Real mode (the browser): time
# follows the wall clock, scaled by a speed factor.
import threading
import time as _time

PERIOD = 1 << 30


class PowerOff(BaseException):
    """Raised inside the firmware's sleep to end its run (a power cut).
    BaseException, so the firmware's own `except Exception` cannot keep it."""


class VirtualClock:
    realtime = False

    def __init__(self, start_ms=1000):
        self.us = start_ms * 1000
        self.limit_us = self.us
        self.stopping = False
        self._to_fw = threading.Semaphore(0)
        self._to_driver = threading.Semaphore(0)

    def now_ms(self):
        return self.us // 1000

    # -- firmware side --------------------------------------------------------
    def sleep_ms(self, ms):
        if ms > 0:
            self.us += int(ms) * 1000
        self._yield_if_due()

    def sleep_us(self, us):
        # Row settle waits are far below a tick; they do not move the clock,
        # so a tick is exactly the period the firmware asked for.
        pass

    def _yield_if_due(self):
        while self.us >= self.limit_us or self.stopping:
            if self.stopping:
                raise PowerOff()
            self._to_driver.release()
            self._to_fw.acquire()

    # -- driver side ----------------------------------------------------------
    def grant(self, ms):
        """Let the firmware run until the clock has advanced by ms."""
        self.limit_us = self.us + int(ms) * 1000
        self._to_fw.release()
        self._to_driver.acquire()

    def first_grant(self):
        """The firmware thread has been started: wait for its first sleep."""
        self._to_driver.acquire()

    def stop(self):
        self.stopping = True
        self._to_fw.release()


class RealClock:
    realtime = True

    def __init__(self, start_ms=1000, speed=1.0):
        self._base_us = start_ms * 1000
        self._t0 = _time.monotonic()
        self.speed = speed
        self.stopping = False
        self._wake = threading.Event()

    @property
    def us(self):
        return self._base_us + int((_time.monotonic() - self._t0) * 1e6 * self.speed)

    def now_ms(self):
        return self.us // 1000

    def set_speed(self, speed):
        speed = max(0.05, min(20.0, float(speed)))
        self._base_us = self.us
        self._t0 = _time.monotonic()
        self.speed = speed

    def sleep_ms(self, ms):
        if self.stopping:
            raise PowerOff()
        self._wake.wait(max(0, ms) / 1000.0 / self.speed)
        if self.stopping:
            raise PowerOff()

    def sleep_us(self, us):
        pass

    def stop(self):
        self.stopping = True
        self._wake.set()


def install_time(clock_ref):
    """Give CPython's time module the MicroPython ticks API, reading the
    clock of the simulation that is running (clock_ref() returns it)."""
    import time

    def ticks_ms():
        return clock_ref().now_ms() & (PERIOD - 1)

    def ticks_us():
        return clock_ref().us & (PERIOD - 1)

    def ticks_add(t, delta):
        return (t + delta) & (PERIOD - 1)

    def ticks_diff(a, b):
        half = PERIOD >> 1
        return ((a - b + half) & (PERIOD - 1)) - half

    def sleep_ms(ms):
        clock_ref().sleep_ms(ms)

    def sleep_us(us):
        clock_ref().sleep_us(us)

    time.ticks_ms = ticks_ms
    time.ticks_us = ticks_us
    time.ticks_cpu = ticks_us
    time.ticks_add = ticks_add
    time.ticks_diff = ticks_diff
    time.sleep_ms = sleep_ms
    time.sleep_us = sleep_us
