"""Trip: ask, research, decide, write."""
from skillplus import Flow
from state import State


def build(flow: Flow[State]) -> None:
    with flow.stage("ask", goal="Know where the traveller goes and what they can spend"):
        flow.ask("where", "Where does {traveller} want to go?", into="destination")
        flow.ask("money", "Which budget: low, mid or high?", into="budget", choices=["low", "mid", "high"])
    with flow.stage("research", goal="A route with notes for every stop"):
        flow.agent("route", "List the stops for {destination}, with nights per stop.", into="stops", tool="scripts/route.py")
        with flow.fanout("per-stop", over="stops", item="s", into="notes", max_parallel=3):
            flow.agent("stop-notes", "Notes on {s.city} for {s.nights} nights.", tool="web_search", rule="cite")
        with flow.loop("refine", until="coverage >= 0.8", max_rounds=3):
            flow.agent("fill", "Fill the gaps in {notes}.", into="coverage")
    with flow.stage("decide"):
        flow.confirm("ok", "Plan the trip to {destination} with these stops?", into="approved")
        with flow.branch("gate", on="approved") as b:
            with b.case(True):
                flow.agent("write", "Write the plan for {traveller}.", into="plan", rule=["cite", "no-secrets"])
            with b.otherwise():
                flow.end("stop", summary="The traveller declined the plan.")
