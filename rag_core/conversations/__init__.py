"""Conversations: follow-up questions made standalone, turns that last, statements acknowledged.

`followup` decides whether a question leans on earlier turns (那…呢, 这个/它,
a fragment without a subject, a very short question) and rewrites it offline
by carrying the previous turn's subject and qualifiers; `rewrite` asks an LLM
for the same with a few-shot prompt and falls back to the raw question on bad
output. A question that stands on its own is never rewritten, so its search is
reproducible. `statements` splits a turn into what it tells about the person
and what it asks. `store` keeps each user's conversations (titles, turns with
their full trace and rating) in SQLite under the data dir; `export` renders one
as Markdown. May import `text` only.
"""
