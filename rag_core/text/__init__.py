"""Language basics every stage shares: jieba with the HR dictionary, stopwords, the thesaurus.

Lowest stage: imports nothing from rag_core but `types`, `errors` and `settings`.
Documents, search and memory tokenise with the same rules, so a word indexed
at upload time is the word a question finds.
"""
