"""Decision positions (WereBench): the items, a model's run on them and their scores."""
