"""How `prep list`, `prep search` and `prep show` print questions: as JSON, or as a table."""


def question_json(bank, question) -> dict:  # type: ignore[no-untyped-def]
    data = question.model_dump(mode="json")
    data["category"] = bank.category_of[question.id]
    answer = bank.answers.get(question.id)
    data["answer"] = answer.answer if answer else None
    data["answer_source"] = answer.source if answer else None
    return data


def print_questions(bank, questions, hits) -> None:  # type: ignore[no-untyped-def]
    """The table of questions (the hits of a search, where there are any) and how many."""
    from prep.cli.output import console
    from prep.cli.render import question_table

    out = console()
    shown = len(hits) if hits is not None else len(questions)
    if not shown:
        out.print("No questions match.")
        return
    out.print(question_table(bank, questions, hits, width=out.width))
    out.print(f"{shown} question{'s' if shown != 1 else ''}", style="dim")
