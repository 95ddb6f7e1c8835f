from weft.db import Store


def test_chat_memory_appends_in_order_per_session(store: Store) -> None:
    store.memory.append("s1", [{"role": "user", "content": "hi"}, {"role": "assistant", "content": "hello"}])
    store.memory.append("s2", [{"role": "user", "content": "other"}])
    store.memory.append("s1", [{"role": "user", "content": "again"}])
    assert [m["content"] for m in store.memory.load("s1")] == ["hi", "hello", "again"]
    assert [m["content"] for m in store.memory.load("s1", last=2)] == ["hello", "again"]
    assert store.memory.clear("s1") == 3
    assert store.memory.load("s1") == []
    assert len(store.memory.load("s2")) == 1


def test_settings_table(store: Store) -> None:
    assert store.settings.get("missing", 5) == 5
    store.settings.set("features", {"a": True})
    store.settings.set("features", {"a": False, "list": [1]})
    store.settings.set("count", 3)
    assert store.settings.get("features") == {"a": False, "list": [1]}
    assert store.settings.all() == {"count": 3, "features": {"a": False, "list": [1]}}
    assert store.settings.delete("count") is True and store.settings.delete("count") is False
