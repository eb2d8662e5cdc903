"""The relay: rooms of Triad games played over WebSocket by boards, pages
and terminals (docs/relay.md). Kept apart from the board's host tools as
lichess keeps its socket server apart from its site:

  server.py     the WebSocket service (`python -m host_tools serve`) and its page
  rooms.py      the rooms one relay holds in memory and what each connection is sent
  rules.py      a room's game, judged by the game's own rules core (the game face)
  store.py      the SQLite store (one relay; a restart loses nothing)
  redis_bus.py  the Redis store and channel (several relays sharing rooms)
  client.py     a client library (sync and asyncio)
  terminal.py   `python -m host_tools play --server URL --room R ...`
  online.py     a board's bridge to a room (`python -m host_tools online --port PORT ...`)
"""
