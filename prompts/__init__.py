"""Every word a model reads: player prompts (the system prompt `table_rules`, the decision's
`question`, its `choices` and the seat's `memory`, from the texts beside them, `texts`), the
moderator's (`moderator`) and the one event renderer (`render`) shared with transcripts,
human seats and replays."""
