"""Agents that play any game through the public contract."""

from .base import Agent, agent_names, make_agent, register_agent

__all__ = ["Agent", "agent_names", "make_agent", "register_agent"]
