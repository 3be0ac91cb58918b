"""The bookkeeping both worker pools share (batch/order.py): results in input order, and
what a dead worker held handed out again before anything new."""

from __future__ import annotations

import pytest

from rummisolve.batch.order import Chunk, InOrder


def crash(item: str) -> str:
    return f"crashed {item}"


def run_of(items: list[str], size: int, window: int = 100) -> InOrder[str, str]:
    chunks = [Chunk(at, items[at : at + size]) for at in range(0, len(items), size)]
    return InOrder(len(items), chunks, window, crash)


def test_results_are_written_in_input_order_whatever_order_they_finish_in() -> None:
    order = run_of(["a", "b", "c", "d"], 2)
    first, second = order.next_chunk(out=0), order.next_chunk(out=1)
    assert first is not None and second is not None
    order.finished(second, ["C", "D"])
    assert list(order.next_results()) == []
    order.finished(first, ["A", "B"])
    assert list(order.next_results()) == ["A", "B", "C", "D"]
    assert order.all_written
    assert order.next_chunk(out=0) is None


def test_no_fresh_chunk_beyond_the_window() -> None:
    order = run_of(["a", "b", "c"], 1, window=2)
    assert order.next_chunk(out=0) == Chunk(0, ["a"])
    assert order.next_chunk(out=1) == Chunk(1, ["b"])
    assert order.next_chunk(out=2) is None


def test_a_lost_chunk_goes_out_again_an_item_at_a_time_before_anything_new() -> None:
    order = run_of(["a", "b", "c", "d"], 2)
    first = order.next_chunk(out=0)
    assert first is not None
    order.lost([first])
    # Handed out again whatever the window: the next result to write is in it.
    assert order.next_chunk(out=999) == Chunk(0, ["a"])
    assert order.next_chunk(out=999) == Chunk(1, ["b"])
    assert order.next_chunk(out=0) == Chunk(2, ["c", "d"])


@pytest.mark.parametrize("behind", [False, True], ids=["alone", "with-a-chunk-queued-behind"])
def test_an_item_that_kills_a_worker_twice_alone_gets_its_crash_result(behind: bool) -> None:
    order = run_of(["a", "b", "c"], 1)
    killer = order.next_chunk(out=0)
    queued = order.next_chunk(out=1)
    assert killer == Chunk(0, ["a"]) and queued is not None
    lost = [killer, queued] if behind else [killer]
    order.lost(lost)  # once: it may have been a kill from outside
    assert order.next_chunk(out=0) == killer
    order.lost([killer])  # twice, alone
    assert list(order.next_results()) == ["crashed a"]
    # A chunk queued behind the dying one never ran: it goes out again, not crashed.
    assert order.next_chunk(out=0) == (queued if behind else Chunk(2, ["c"]))
