"""The modes between the table and the screens: passport, referee, and teaching a deck.

A mode takes the vision's :class:`~kiosk.table.TableView` snapshots and the players' inputs and
gives typed events and state; ``kiosk.ui`` only draws that state and forwards inputs. Nothing
here imports pygame, and the UI reaches the games and their referees only through here.
"""
