# A retriever for RAG Inspector (persistent mode): one JSON request per line on stdin, one answer per line on stdout.
import json, sys

DOCS = {"paris": "Paris is the capital of France.", "berlin": "Berlin is the capital of Germany.",
        "nile": "The Nile is the longest river in Africa."}

def words(text): return set(text.lower().replace("?", " ").replace(".", " ").split())

for line in sys.stdin:
    request = json.loads(line)
    scored = sorted(((len(words(request["question"]) & words(text)), doc_id) for doc_id, text in DOCS.items()), reverse=True)
    items = [{"id": doc_id, "text": DOCS[doc_id], "score": score} for score, doc_id in scored[: request["k"]]]
    print(json.dumps({"id": request["id"], "items": items}), flush=True)  # flush: answer now, not at exit
