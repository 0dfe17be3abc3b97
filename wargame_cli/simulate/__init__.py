"""`wargame simulate`: many bot-vs-bot games with the real rules, and their statistics."""
