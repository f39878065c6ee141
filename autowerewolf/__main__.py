from autowerewolf.cli import app

app()
