# The board description is data other code trusts blindly: check it here.
from triad.boards import pico_v1 as d
from triad.board import scan

# GPIOs the Pico uses internally (SMPS mode, VBUS sense, on-board LED, VSYS/3).
_RESERVED = (23, 24, 25, 29)


def _perm(b, n):
    return len(b) == n and sorted(b) == list(range(n))


def test_pins_are_unique_and_usable():
    pins = list(d.ROW_PINS) + list(d.COL_PINS) + list(d.BUTTON_PINS) + [d.LED_PIN]
    assert len(pins) == len(set(pins))
    for p in pins:
        assert 0 <= p <= 28 and p not in _RESERVED
    assert len(d.ROW_PINS) * len(d.COL_PINS) == d.N_CELLS == 36


def test_matrix_and_chain_are_permutations():
    assert _perm(d.MATRIX_CELL, 36)
    assert _perm(d.LED_CHAIN, d.N_LEDS)
    assert d.N_LEDS == 36 + d.N_STATUS


def test_chain_is_serpentine():
    # Consecutive cells on the chain are orthogonal neighbours: short wires.
    prev = d.LED_CHAIN[0]
    assert prev == 0  # the data line enters at a1
    for p in range(1, 36):
        c = d.LED_CHAIN[p]
        df = abs(c % 6 - prev % 6)
        dr = abs(c // 6 - prev // 6)
        assert df + dr == 1, (p, prev, c)
        prev = c


def test_status_slots_match_the_controller_convention():
    assert d.STATUS_TURN_BLACK == 0 and d.STATUS_TURN_WHITE == 1
    assert d.STATUS_TRIADS_BLACK == 2 and d.STATUS_TRIADS_WHITE == 5
    assert d.N_STATUS == 8


def test_buttons_and_timing():
    assert tuple(d.BUTTON_NAMES) == scan.BUTTON_ORDER
    assert len(d.BUTTON_PINS) == 4
    assert d.SCAN_HZ >= 100
    debounce_ms = d.DEBOUNCE * 1000 // d.SCAN_HZ
    assert 20 <= debounce_ms <= 60
    assert 5 <= d.SETTLE_US <= 500
    assert d.LONG_PRESS_MS >= 500


def test_power_budget_adds_up():
    assert d.LED_BUDGET_MA + d.BOARD_MA + d.N_LEDS * d.LED_IDLE_MA <= d.USB_BUDGET_MA
    assert 0 < d.BRIGHTNESS_DEFAULT <= d.BRIGHTNESS_MAX <= 255


def test_buzzer_pin_is_free_on_every_board():
    # The optional piezo (issue 16) takes a GPIO no other function uses, or
    # None where the board has none left (tri_v1 uses all 26).
    from triad.boards import hex_v1, tri_v1

    for b in (d, hex_v1, tri_v1):
        used = list(b.ROW_PINS) + list(b.COL_PINS) + list(b.BUTTON_PINS) + [b.LED_PIN]
        p = b.BUZZER_PIN
        if p is None:
            free = [g for g in range(29) if g not in _RESERVED and g not in used]
            assert free == [], (b.NAME, free)
        else:
            assert 0 <= p <= 28 and p not in _RESERVED and p not in used, (b.NAME, p)
    assert d.BUZZER_PIN == 22 and hex_v1.BUZZER_PIN == 22 and tri_v1.BUZZER_PIN is None
