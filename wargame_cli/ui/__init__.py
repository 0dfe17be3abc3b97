"""Everything that talks to a person: rendering (rich) and prompts (questionary)."""
