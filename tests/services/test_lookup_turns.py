"""Turns on the lookup index (app.services.lookup.index.Turns): rankings share it, a refresh
has it alone, after the rankings in flight and before any that come meanwhile."""

import threading
import time

from app.services.lookup.index import Turns


def test_rankings_share_the_index():
    turns = Turns()
    assert turns.rank(0) and turns.rank(0)  # the second does not wait for the first
    turns.ranked()
    turns.ranked()


def test_a_refresh_waits_for_the_rankings_in_flight_and_new_ones_wait_for_it():
    turns = Turns()
    assert turns.rank()
    events: list[str] = []

    def refresh() -> None:
        with turns.refreshing():
            events.append("refresh")
            time.sleep(0.1)
        events.append("refreshed")

    refresher = threading.Thread(target=refresh)
    refresher.start()
    time.sleep(0.05)
    assert events == []  # a ranking is in flight
    assert not turns.rank(0.01)  # the refresh waits its turn: a new ranking waits for it
    events.append("ranked")
    turns.ranked()
    assert turns.rank(5)  # once the refresh is done
    events.append("ranking again")
    turns.ranked()
    refresher.join()
    assert events == ["ranked", "refresh", "refreshed", "ranking again"]
