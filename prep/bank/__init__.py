"""The bank: YAML question and answer files, validated into pydantic models, cached, selected,
searched, linted and edited byte-preservingly. Imports only the foundations (prep.errors, paths,
text, files, suggest)."""
