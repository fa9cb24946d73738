"""Pure rules of the hosted games; imports nothing from the rest of Intrigue."""
