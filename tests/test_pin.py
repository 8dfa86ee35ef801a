"""The operator PIN: right code opens, three wrong codes lock, locks double, a locked guard refuses all."""

from kiosk.ui.pin import PinGuard


def test_right_pin_opens():
    assert PinGuard("1830").check("1830", now=0)


def test_three_wrong_tries_lock_even_the_right_pin():
    guard = PinGuard("1830", tries=3, lock_seconds=30)
    assert not any(guard.check("0000", now=t) for t in (0, 1, 2))
    assert guard.locked_for(3) == 29
    assert not guard.check("1830", now=10)
    assert guard.check("1830", now=33)


def test_locks_double_each_time():
    guard = PinGuard("1830", tries=1, lock_seconds=10)
    guard.check("1", now=0)
    assert guard.locked_for(0) == 10
    guard.check("2", now=10)
    assert guard.locked_for(10) == 20
    guard.check("3", now=30)
    assert guard.locked_for(30) == 40
