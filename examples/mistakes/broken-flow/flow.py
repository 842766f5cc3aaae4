from skillplus import Flow
from state import State


def build(flow: Flow[State]) -> None:
    with flow.stage("scope"):
        flow.ask("how-deep", "Quick or thorough?", into="depth", choices=["quick", "deep"])  # "deep" is not in the Literal
        flow.confirm("go", "Research {topc}?", into="summary")  # {topc} is misspelt; a confirm writes a bool
    with flow.stage("gather"):
        with flow.loop("more-sources", until="len(sources) > 3"):  # not a predicate; no max_rounds
            flow.agent("search", "Find sources on {topic}.", into="sources", tool="scripts/search.py", rule="cite")  # no such script; no rule "cite"
    with flow.stage("write"):
        flow.agent("draft", "Summarise {sources}.", into="summary", rule="sources-first")
