"""Every word a model reads: player prompts (`player`), the moderator's (`moderator`) and the
one event renderer (`render`) shared with transcripts, human seats and replays."""
