"""Gate: no credentials leave through tools."""
from skillplus import rule


@rule(id="no-secrets", on_fail="deny", when="event=pre_tool and tool in [Bash, web_search]", message="No credentials in tool calls.")
def no_secrets(state, ctx) -> bool | str:
    text = str(ctx.tool_input)
    return "password" not in text.lower() or "The tool input holds a password."
