"""The relay's message fuzz (issue 38; docs/fuzzing.md, "The relay"): a
connection that holds no seat sends anything (text that is not JSON,
binary, any JSON, the relay's ops with fields of any type, real room ids
with wrong tokens, oversized messages) to a relay process. After every
example: the relay is up, each message got exactly one answer (a reply or
{"op":"error"} with a reason), no seat's token appeared in any of them,
and the room the fuzzer has no token of is exactly as it was.

`make test` runs FUZZ_EXAMPLES (150) examples, derandomized; `make fuzz`
(fuzz-relay) runs TRIAD_RELAY_FUZZ examples with a random draw."""
import json
import os

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from host_tools.relay.client import Client
from relay_kit import Relay

EXAMPLES = int(os.environ.get("TRIAD_RELAY_FUZZ", "150"))
COUNTS = {"examples": 0, "messages": 0, "errors": 0, "replies": 0}
OPS = ("create", "join", "watch", "move", "state", "board", "games")
REPLY_OPS = {"created", "state", "board", "move", "over", "error", "games"}


@pytest.fixture(scope="module")
def world():
    r = Relay(store=":memory:")
    host = Client(r.url)
    made = host.create("nehren")
    seats = {s: Client(r.url) for s in made["seats"]}
    for s, c in seats.items():
        c.join(made["room"], made["seats"][s])
    seats["b"].move("a1a3")  # a game under way, White to move
    watcher = Client(r.url)
    before = watcher.watch(made["room"])
    yield {"relay": r, "made": made, "watcher": watcher, "before": before}
    alive = r.alive()
    r.stop()
    if os.environ.get("TRIAD_RELAY_FUZZ_SUMMARY"):
        with open(os.environ["TRIAD_RELAY_FUZZ_SUMMARY"], "w") as f:
            f.write("relay fuzz: %(examples)d examples, %(messages)d messages (%(errors)d refused, "
                    "%(replies)d served), " % COUNTS + ("the relay up at the end\n" if alive else "THE RELAY DIED\n"))
    assert alive, "the relay died"


json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(max_size=20),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner, max_size=4),
    max_leaves=12)


def op_messages(room):
    """Messages shaped like the relay's, with fields right, wrong or odd."""
    anything = json_values | st.sampled_from([room, "", "b", "w", "nehren", "browne", "cornelson", "standard",
                                              "capture", "f6f4", "a1a3", "D2-D7@D2", "A1", "x" * 300])
    return st.fixed_dictionaries(
        {"op": st.sampled_from(OPS) | anything},
        optional={"game": anything, "room": anything, "token": anything | st.text(min_size=20, max_size=30),
                  "move": anything, "position": anything, "mode": anything, "ply": anything, "id": anything})


def well_formed(room):
    """Requests the relay serves (a room of the fuzzer's own, the real room
    watched, the games), so that the paths after the checks run too."""
    return st.one_of(
        st.builds(lambda g: {"op": "create", "game": g}, st.sampled_from(["nehren", "browne", "cornelson"])),
        st.builds(lambda m: {"op": "create", "game": "cornelson", "mode": m},
                  st.sampled_from(["standard", "breach", "trap", "capture", "tourney"])),
        st.just({"op": "watch", "room": room}),
        st.just({"op": "games"}),
        st.just({"op": "state"}),
        st.just({"op": "board"}),
        st.builds(lambda m, p: {"op": "move", "move": m, "ply": p},
                  st.sampled_from(["f6f4", "a1a3", "D2-D7@D2", "A1", "f6f4 "]), st.integers(0, 3)),
    ).map(json.dumps)


def messages(room):
    return st.one_of(
        well_formed(room),
        op_messages(room).map(json.dumps),
        json_values.map(json.dumps),
        st.text(max_size=200),
        st.binary(max_size=64),
        st.integers(4090, 6000).map(lambda n: json.dumps({"op": "move", "move": "f6f4", "pad": "x" * n})),
        # nested past the JSON parser's depth, with and without an "id"
        st.integers(1, 2000).map(lambda n: '{"id": 1, "op": ' + "[" * n + "]" * n + "}"),
    )


@pytest.fixture(scope="module")
def room_id(world):
    return world["made"]["room"]


def test_relay_survives_any_message(world):
    room = world["made"]["room"]
    tokens = list(world["made"]["seats"].values())
    url = world["relay"].url

    @settings(max_examples=EXAMPLES, deadline=None, suppress_health_check=list(HealthCheck))
    @given(st.lists(messages(room), min_size=1, max_size=8))
    def run(batch):
        c = Client(url)
        try:
            for raw in batch:
                c.ws.send(raw)
            c.ws.send(json.dumps({"op": "state", "id": "end-of-batch"}))
            answers = []
            while True:
                msg = json.loads(c.ws.recv(timeout=60))  # (a machine loaded 20 deep)
                if msg.get("id") == "end-of-batch":
                    break
                answers.append(msg)
        finally:
            c.close()
        # One answer a message: a reply or an error (a move the fuzzer made
        # in a room of its own may add its "over").
        plain = [m for m in answers if m.get("op") != "over"]
        assert len(plain) == len(batch), (batch, answers)
        for m in answers:
            assert m.get("op") in REPLY_OPS, m
            if m["op"] == "error":
                assert isinstance(m["reason"], str) and m["reason"]
        text = json.dumps(answers)
        for t in tokens:
            assert t not in text
        COUNTS["examples"] += 1
        COUNTS["messages"] += len(batch)
        COUNTS["errors"] += sum(1 for m in answers if m["op"] == "error")
        COUNTS["replies"] += sum(1 for m in answers if m["op"] != "error")

    run()
    assert world["relay"].alive()
    assert world["watcher"].state() == world["before"]  # the room without a token to it: untouched
    assert COUNTS["examples"] >= min(EXAMPLES, 100)
