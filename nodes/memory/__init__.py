"""Long-term memory per customer: stable facts in LangGraph's store (issue 9 §5)."""
