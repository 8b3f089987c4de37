"""Answer: the guarded prompt, the LLM client and the offline answerer.

`prompt` packs the hits that passed search into numbered sources, `llm` talks
to any OpenAI-compatible endpoint, `extractive` quotes policy sentences when no
model is configured, and `answering` picks one of them for a question.

May import: `rag_core.search` (records only), `rag_core.text`, top-level `types`, `errors`, `settings`.
Must not import memory, evaluation, cli or the facade.
"""
