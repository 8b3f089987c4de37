"""Search: put chunks into the indexes and find the ones that answer a question.

Embedding (`embedding`), vectors (`vector_store`, Chroma), keywords (`bm25`,
`keyword_index`), who may see what (`visibility`), the corpus background
(`centroid`), fusion and the evidence rule (`fusion`, `retrieval`), and the
write path that keeps catalog, vectors and keywords in step (`indexer`).

May import: `rag_core.documents`, `rag_core.text`, top-level `types`, `errors`, `settings`.
Must not import answer, memory, evaluation, cli or the facade.
"""
