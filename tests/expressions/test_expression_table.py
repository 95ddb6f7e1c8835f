"""n8n expressions and the values n8n gives for them (strings, numbers, dates at fixed instants, paired items).

Every row evaluates against :func:`expr_fixtures.make_context` (``$now`` = 2024-01-02T03:04:05Z, zone UTC)
for input item 0 unless the row says otherwise.
"""

from __future__ import annotations

from typing import Any

import pytest
from expr_fixtures import make_context

from weft.errors import ExpressionError
from weft.expressions import evaluate

# (expression, expected) for item 0
LITERALS: list[tuple[str, Any]] = [
    ("={{ 1 }}", 1),
    ("={{ 1.5 }}", 1.5),
    ("={{ 1.0 }}", 1),
    ("={{ -3 }}", -3),
    ("={{ 10 / 4 }}", 2.5),
    ("={{ 0.1 + 0.2 }}", 0.30000000000000004),
    ("={{ 7 % 3 }}", 1),
    ("={{ 2 ** 10 }}", 1024),
    ('={{ "5" * 2 }}', 10),
    ('={{ "5" + 2 }}', "52"),
    ('={{ "a" }}', "a"),
    ("={{ true }}", True),
    ("={{ false }}", False),
    ("={{ null }}", None),
    ("={{ undefined }}", None),
    ('={{ [1, "a", null] }}', [1, "a", None]),
    ("={{ {a: 1, b: [true]} }}", {"a": 1, "b": [True]}),
    ("={{ { a: { b: 1 } } }}", {"a": {"b": 1}}),
    ("={{ '{{' }}", "{{"),
    ("={{ 1 /* comment */ }}", 1),
    ("={{ Math.max(1, 5, 3) }}", 5),
    ("={{ Math.round(2.5) }}", 3),
    ('={{ parseInt("42px") }}', 42),
    ('={{ parseFloat("3.14abc") }}', 3.14),
    ('={{ Number("1e3") }}', 1000),
    ("={{ (123.456).toFixed(1) }}", "123.5"),
    ("={{ typeof {} }}", "object"),
    ("={{ 1 < 2 && 'yes' }}", "yes"),
    ("={{ null ?? 'fallback' }}", "fallback"),
    ("={{ [1, 2, 3].map(x => x * 2) }}", [2, 4, 6]),
    ("={{ [3, 1, 2].sort() }}", [1, 2, 3]),
    ("={{ [1, [2, [3]]].flat(Infinity) }}", [1, 2, 3]),
    ("={{ [1, 2, 3].filter(x => x > 1).length }}", 2),
    ("={{ [1, 2, 3].reduce((a, b) => a + b, 0) }}", 6),
    ("={{ Array.from({length: 3}, (_, i) => i) }}", [0, 1, 2]),
    ('={{ [..."ab"] }}', ["a", "b"]),
    ("={{ ({...{a: 1}, b: 2}) }}", {"a": 1, "b": 2}),
    ("={{ Object.keys({x: 1, y: 2}) }}", ["x", "y"]),
    ("={{ Object.entries({a: 1}) }}", [["a", 1]]),
    ("={{ JSON.stringify({a: [1]}) }}", '{"a":[1]}'),
    ("={{ JSON.parse('{\"k\": 2}').k }}", 2),
    ('={{ encodeURIComponent("a b&c") }}', "a%20b%26c"),
    ('={{ "abc".includes("b") }}', True),
    ('={{ "  x ".trim() }}', "x"),
    ('={{ "abc".at(-1) }}', "c"),
    ('={{ "x".repeat(3) }}', "xxx"),
    ('={{ "Hello".replace(/l/g, "L") }}', "HeLLo"),
    ('={{ /^a/.test("abc") }}', True),
    ('={{ "a,b".split(",") }}', ["a", "b"]),
    ('={{ "abc".toUpperCase() }}', "ABC"),
    ('={{ "ABC".toLowerCase().padStart(5, "-") }}', "--abc"),
    ("={{ new Date(0).toISOString() }}", "1970-01-01T00:00:00.000Z"),
    ("={{ (1234.5678).toLocaleString('en-US') }}", "1,234.568"),
    ("={{ new Intl.NumberFormat('en-US', {style: 'currency', currency: 'USD'}).format(12.5) }}", "$12.50"),
    ("={{ (() => { const a = 2; return a * 21 })() }}", 42),
]

TEMPLATES: list[tuple[str, Any]] = [
    ("=plain text", "plain text"),
    ("=", ""),
    ("=a{{ 1 }}b", "a1b"),
    ("={{ 1 }}{{ 2 }}", "12"),
    ("={{ 1 }} ", "1 "),
    ("=unclosed {{ 1", "unclosed 1"),  # n8n evaluates an unclosed segment to the end
    # n8n joins the segments of a template: an array renders as `String([1, 2])`, an object as [object Object]
    ("={{ [1, 2] }} x", "1,2 x"),
    ("=v: {{ {a: 1} }}", "v: [object Object]"),
    ("=n: {{ null }}", "n: "),
    ("=u: {{ undefined }}", "u: "),
    ("=b: {{ true }}", "b: true"),
    ("=f: {{ 1.0 }}", "f: 1"),
    ("=f: {{ 0.1 + 0.2 }}", "f: 0.30000000000000004"),
    ("=Hello {{ $json.name }}!", "Hello Ada!"),
    ("=Tags: {{ $json.tags }}", "Tags: x,y"),
    ("=Count {{ $json.count }} of {{ $json.tags.length }}", "Count 3 of 2"),
    ("=Today: {{ $today }}", "Today: 2024-01-02T00:00:00.000Z"),
]

JSON_ACCESS: list[tuple[str, Any]] = [
    ("={{ $json.name }}", "Ada"),
    ('={{ $json["name"] }}', "Ada"),
    ("={{ $json['key with space'] }}", "s"),
    ("={{ $json.nested.deep.value }}", 42),
    ("={{ $json.tags[1] }}", "y"),
    ("={{ $json.items[0].v }}", "a"),
    ("={{ $json.price }}", 12.5),
    ("={{ $json.tags }}", ["x", "y"]),
    ("={{ $json.nested }}", {"deep": {"value": 42}}),
    ("={{ $json.missing }}", None),
    ("={{ $json.missing?.deep }}", None),
    ("={{ $json.missing ?? 'default' }}", "default"),
    ("={{ $json.count > 1 ? 'many' : 'few' }}", "many"),
    ("={{ $json.count * 2 }}", 6),
    ("={{ ($json.counter ?? 0) + 1 }}", 1),
    ("={{ !!$json.name }}", True),
    ("={{ $json.empty || 'was empty' }}", "was empty"),
    ("={{ $json.zero }}", 0),
    ("={{ typeof $json }}", "object"),
    ("={{ Object.keys($json.nested) }}", ["deep"]),
    ("={{ $json.items.map(i => i.id) }}", [1, 2]),
    ("={{ $json.name.length }}", 3),
]

VARIABLES: list[tuple[str, Any]] = [
    ("={{ $runIndex }}", 0),
    ("={{ $itemIndex }}", 0),
    ("={{ $workflow.name }}", "Expression tests"),
    ("={{ $workflow.id }}", "wf-1"),
    ("={{ $workflow.active }}", False),
    ("={{ $execution.id }}", "exec-1"),
    ("={{ $execution.mode }}", "test"),
    ("={{ $execution.resumeUrl }}", "http://localhost:5678/webhook-waiting/exec-1"),
    ("={{ $vars.myVar }}", "v1"),
    ("={{ $vars.limit + 1 }}", 11),
    ("={{ $prevNode.name }}", "Mix up pairing"),
    ("={{ $prevNode.outputIndex }}", 0),
    ("={{ $prevNode.runIndex }}", 0),
    ("={{ $parameter.someParam }}", "plain"),
    ("={{ $parameter.n * 2 }}", 10),
    ("={{ $parameter.computed }}", "Ada!"),
    ("={{ $parameter.nope }}", None),
    ("={{ $mode }}", "manual"),
    ("={{ $nodeVersion }}", 3.4),
    ("={{ $nodeId }}", "node-current"),
    ("={{ $binary.data.fileName }}", "a.txt"),
    ("={{ $input.item.json.name }}", "Ada"),
    ("={{ $input.first().json.name }}", "Ada"),
    ("={{ $input.last().json.name }}", "Cy"),
    ("={{ $input.all().length }}", 3),
    ("={{ $input.all().map(i => i.json.name).join(',') }}", "Ada,Bob,Cy"),
    ("={{ $input.params }}", {}),
    ("={{ $items().length }}", 3),
    ("={{ $thisItem.json.count }}", 3),
    ("={{ $position }}", 0),
    ("={{ $if($json.count > 2, 'big', 'small') }}", "big"),
    ("={{ $if(false, 1) }}", False),
    ("={{ $ifEmpty($json.empty, 'x') }}", "x"),
    ("={{ $ifEmpty([], 'x') }}", "x"),
    ("={{ $ifEmpty({}, 'x') }}", "x"),
    ("={{ $ifEmpty($json.name, 'x') }}", "Ada"),
    ("={{ $min(4, 2, 8) }}", 2),
    ("={{ $max(4, 2, 8) }}", 8),
    ("={{ $jmespath($json, 'items[*].id') }}", [1, 2]),
    ("={{ $jmespath($json.items, '[?id > `1`].v') }}", ["b"]),
    ("={{ $jmespath({a: {b: 'c'} }, 'a.b') }}", "c"),
]

NODE_DATA: list[tuple[str, Any, int]] = [
    ("={{ $('Generate new items').item.json.originalItem }}", "third", 0),
    ("={{ $('Generate new items').item.json.originalItem }}", "first", 1),
    ("={{ $('Generate new items').item.json.letterOriginal }}", "b", 2),
    ("={{ $('Generate new items').item.json.numberOriginal }}", 3, 0),
    ("={{ $('Generate new items').itemMatching(1).json.originalItem }}", "first", 0),
    ("={{ $('Generate new items').pairedItem().json.numberOriginal }}", 2, 2),
    ("={{ $('Mix up pairing').item.json.name }}", "Bob", 1),
    ("={{ $('Generate new items').first().json.originalItem }}", "first", 0),
    ("={{ $('Generate new items').last().json.originalItem }}", "third", 0),
    ("={{ $('Generate new items').all().length }}", 3, 0),
    ("={{ $('Generate new items').all().map(i => i.json.letterOriginal) }}", ["a", "b", "c"], 0),
    ("={{ $('Generate new items').isExecuted }}", True, 0),
    ("={{ $('Unexecuted').isExecuted }}", False, 0),
    ("={{ $('Trigger').first().json }}", {}, 0),
    ("={{ $('Generate new items').params.mode }}", "runOnceForAllItems", 0),
    ("={{ $node['Generate new items'].json.originalItem }}", "second", 1),
    ('={{ $node["Mix up pairing"].json.name }}', "Cy", 2),
    ("={{ $node['Generate new items'].runIndex }}", 0, 0),
    ("={{ $node['Generate new items'].parameter.mode }}", "runOnceForAllItems", 0),
    ("={{ $items('Generate new items').length }}", 3, 0),
    ("={{ $items('Generate new items')[2].json.letterOriginal }}", "c", 0),
    ("={{ $items('Generate new items', 0, 0)[0].json.numberOriginal }}", 1, 0),
    ("={{ $json.name }}", "Bob", 1),
    ("={{ $itemIndex }}", 2, 2),
    ("={{ $input.item.json.name }}", "Cy", 2),
]

EXTENSIONS: list[tuple[str, Any]] = [
    ("={{ 'hello world'.toTitleCase() }}", "Hello World"),
    ("={{ ''.isEmpty() }}", True),
    ("={{ 'a'.isEmpty() }}", False),
    ("={{ 'a'.isNotEmpty() }}", True),
    ("={{ 'Mail me at ada@example.com today'.extractEmail() }}", "ada@example.com"),
    ("={{ 'ada@example.com'.isEmail() }}", True),
    ("={{ 'not an email'.isEmail() }}", False),
    ("={{ 'https://n8n.io/path/x?y=1'.extractUrlPath() }}", "/path/x"),
    ("={{ 'https://www.n8n.io/x'.extractDomain() }}", "www.n8n.io"),
    ("={{ 'ada@example.com'.extractDomain() }}", "example.com"),
    ("={{ 'see https://n8n.io/docs now'.extractUrl() }}", "https://n8n.io/docs"),
    ("={{ 'https://n8n.io'.isUrl() }}", True),
    ("={{ 'n8n'.isUrl() }}", False),
    ("={{ '123'.isNumeric() }}", True),
    ("={{ '12a'.isNumeric() }}", False),
    ("={{ 'hello'.base64Encode() }}", "aGVsbG8="),
    ("={{ 'aGVsbG8='.base64Decode() }}", "hello"),
    ("={{ 'a b'.urlEncode() }}", "a%20b"),
    ("={{ 'a%20b'.urlDecode() }}", "a b"),
    ("={{ '<p>hi <b>there</b></p>'.removeTags() }}", "hi there"),
    ("={{ '{\"a\": 1}'.parseJson() }}", {"a": 1}),
    ("={{ 'true'.toBoolean() }}", True),
    ("={{ 'false'.toBoolean() }}", False),
    ("={{ '12'.toNumber() }}", 12),
    ("={{ '12.5'.toFloat() }}", 12.5),
    ("={{ '12.9'.toInt() }}", 12),
    ("={{ 'Hello World Again'.toSnakeCase() }}", "hello_world_again"),
    ("={{ 'hello. world'.toSentenceCase() }}", "Hello. World"),
    ("={{ 'abc'.quote() }}", '"abc"'),
    ("={{ 'café'.replaceSpecialChars() }}", "cafe"),
    ("={{ 'x'.toJsonString() }}", '"x"'),
    ("={{ [1, 2, 3].sum() }}", 6),
    ("={{ [1, 2, 3].average() }}", 2),
    ("={{ [3, 1, 2].max() }}", 3),
    ("={{ [3, 1, 2].min() }}", 1),
    ("={{ [].isEmpty() }}", True),
    ("={{ [1].isNotEmpty() }}", True),
    ("={{ [1, 2].first() }}", 1),
    ("={{ [1, 2].last() }}", 2),
    ("={{ [{a: 1}, {a: 2}].pluck('a') }}", [1, 2]),
    ("={{ [1, 1, 2, 2].removeDuplicates() }}", [1, 2]),
    ("={{ [{a: 1, b: 1}, {a: 1, b: 2}].removeDuplicates('a') }}", [{"a": 1, "b": 1}]),
    ("={{ [1, 2, 3, 4, 5].chunk(2) }}", [[1, 2], [3, 4], [5]]),
    ("={{ [1, 2, 3].difference([2]) }}", [1, 3]),
    ("={{ [1, 2].intersection([2, 3]) }}", [2]),
    ("={{ [1, 2].union([2, 3]) }}", [1, 2, 3]),
    ("={{ [null, 1, '', 2, undefined].compact() }}", [1, 2]),
    ("={{ [1].append(2, 3) }}", [1, 2, 3]),
    ("={{ [{k: 'a', v: 1}, {k: 'b', v: 2}].smartJoin('k', 'v') }}", {"a": 1, "b": 2}),
    ("={{ [{a: 1}].renameKeys('a', 'b') }}", [{"b": 1}]),
    ("={{ $json.tags.isEmpty() }}", False),
    ("={{ ({}).isEmpty() }}", True),
    ("={{ ({a: 1}).isNotEmpty() }}", True),
    ("={{ ({a: 1}).hasField('a') }}", True),
    ("={{ ({a: 1, b: 2}).removeField('a') }}", {"b": 2}),
    ("={{ ({a: 1, b: null, c: ''}).compact() }}", {"a": 1}),
    ("={{ ({a: 1, b: 2}).keys() }}", ["a", "b"]),
    ("={{ ({a: 1, b: 2}).values() }}", [1, 2]),
    ("={{ ({a: 'x y', b: 1}).urlEncode() }}", "a=x+y&b=1"),
    ("={{ ({a: 'foo', b: 'bar'}).removeFieldsContaining('fo') }}", {"b": "bar"}),
    ("={{ ({a: 'foo', b: 'bar'}).keepFieldsContaining('fo') }}", {"a": "foo"}),
    ("={{ (1.234).round(2) }}", 1.23),
    ("={{ (1.5).round() }}", 2),
    ("={{ (1.7).floor() }}", 1),
    ("={{ (1.2).ceil() }}", 2),
    ("={{ (4).isEven() }}", True),
    ("={{ (3).isOdd() }}", True),
    ("={{ (1234.5).format('en-US') }}", "1,234.5"),
    ("={{ (0).toBoolean() }}", False),
    ("={{ (true).toNumber() }}", 1),
    ("={{ $json.price.round() }}", 13),
]

DATES: list[tuple[str, Any]] = [
    ("={{ $now.toISO() }}", "2024-01-02T03:04:05.000Z"),
    ("={{ $now }}", "2024-01-02T03:04:05.000Z"),
    ("={{ $today.toISO() }}", "2024-01-02T00:00:00.000Z"),
    ("={{ $now.year }}", 2024),
    ("={{ $now.toFormat('yyyy-MM-dd HH:mm:ss') }}", "2024-01-02 03:04:05"),
    ("={{ $now.format('dd LLL yyyy') }}", "02 Jan 2024"),
    ("={{ $now.minus({days: 2}).toISODate() }}", "2023-12-31"),
    ("={{ $now.plus(1, 'day').toISODate() }}", "2024-01-03"),
    ("={{ $now.plus({hours: 24}).weekdayLong }}", "Wednesday"),
    ("={{ $now.beginningOf('month').toISO() }}", "2024-01-01T00:00:00.000Z"),
    ("={{ $now.endOfMonth().toISODate() }}", "2024-01-31"),
    ("={{ $now.isWeekend() }}", False),
    ("={{ $now.extract('month') }}", 1),
    ("={{ $now.toMillis() }}", 1704164645000),
    ("={{ $now.toSeconds() }}", 1704164645),
    ("={{ (1704164645000).toDateTime().toISO() }}", "2024-01-02T03:04:05.000Z"),
    ("={{ DateTime.fromMillis(0, {zone: 'UTC'}).toISO() }}", "1970-01-01T00:00:00.000Z"),
    ("={{ DateTime.fromISO('2024-03-05T10:20:30Z').toFormat('cccc, LLLL d') }}", "Tuesday, March 5"),
    ("={{ DateTime.fromISO('2024-03-05T10:20:30Z').setZone('America/New_York').toFormat('HH:mm') }}", "05:20"),
    (
        "={{ DateTime.fromISO('2024-07-05T10:20:30Z').setZone('America/New_York').toFormat('HH:mm ZZ') }}",
        "06:20 -04:00",
    ),
    ("={{ DateTime.fromISO('2024-03-05T10:20:30Z').setZone('Europe/Berlin').hour }}", 11),
    ("={{ DateTime.fromISO('2024-03-05T10:20:30Z').setZone('Asia/Tokyo').toISO() }}", "2024-03-05T19:20:30.000+09:00"),
    ("={{ DateTime.fromISO('2024-03-05T10:20:30Z').weekday }}", 2),
    ("={{ DateTime.fromISO('2024-03-05').plus({months: 1}).toISODate() }}", "2024-04-05"),
    ("={{ DateTime.fromISO('2024-03-05').diff(DateTime.fromISO('2024-03-01'), 'days').days }}", 4),
    ("={{ DateTime.fromISO('2024-03-05').diffTo('2024-03-01', 'days') }}", 4),
    ("={{ Duration.fromObject({hours: 2}).as('minutes') }}", 120),
    ("={{ Duration.fromISO('PT1H30M').toFormat('hh:mm') }}", "01:30"),
    ("={{ Interval.fromDateTimes(DateTime.fromISO('2024-03-01'), DateTime.fromISO('2024-03-05')).length('days') }}", 4),
    ("={{ '2024-03-05'.toDateTime().toISODate() }}", "2024-03-05"),
    ("={{ '2024-03-05T10:20:30Z'.toDateTime().toMillis() }}", 1709634030000),
    ("={{ DateTime.fromFormat('05/03/2024', 'dd/MM/yyyy').toISODate() }}", "2024-03-05"),
    ("={{ DateTime.fromISO('2024-03-05T10:20:30Z').toLocaleString(DateTime.DATE_MED) }}", "Mar 5, 2024"),
    ("={{ DateTime.fromISO('2024-03-05').isBetween('2024-03-01', '2024-03-10') }}", True),
    ("={{ DateTime.fromISO('2024-02-29').plus({years: 1}).toISODate() }}", "2025-02-28"),
    ("={{ DateTime.fromISO('not a date').isValid }}", False),
    # n8n's evaluator swallows every error of a segment but its own expression errors (recorded: e077, e094)
    ("={{ $json.missing.deep }}", None),
    ("={{ null.x }}", None),
    ("={{ JSON.parse('{') }}", None),
    ("={{ (() => { throw new Error('boom') })() }}", None),
    ("=a {{ $json.missing.deep }} b", "a  b"),
]

ERRORS: list[tuple[str, str]] = [
    ("={{ 1 + }}", "invalid syntax"),
    # n8n's splitter ends a segment at the first `}}`, even in a string; an empty segment is no expression
    ('={{ "}}" }}', "invalid syntax"),
    ("={{ `x${1 + 1}}` }}", "invalid syntax"),
    ("=Empty: {{ }}", "invalid syntax"),
    ("={{ DateTime }}", "this is a DateTime, please access its methods"),
    ("={{ $json.name.toUpperCase }}", "this is a function, please add ()"),
    ("={{ $('Missing').item }}", "Referenced node doesn't exist"),
    ("={{ $() }}", "When calling $(), please specify a node"),
    ("={{ $('Unexecuted').first() }}", "Node 'Unexecuted' hasn't been executed"),
    ("={{ $('Island').item }}", "Invalid expression"),
    ("={{ $('Generate new items').itemMatching() }}", "Missing item index for .itemMatching()"),
    ("={{ $node['Missing'].json }}", "Referenced node does not exist"),
    ("={{ $items('Unexecuted') }}", "Node 'Unexecuted' hasn't been executed"),
    ("={{ $items('Generate new items', 0, 3) }}", 'Run 3 of node "Generate new items" not found'),
    ("={{ $items('Generate new items', 2) }}", 'Node "Generate new items" has no branch with index 2.'),
    ("={{ $input.first(1) }}", "$input.first() should have no arguments"),
    ("={{ $env.HOME }}", "access to env vars denied"),
    ("={{ $fromAI('') }}", "Add a key, e.g. $fromAI('placeholder_name')"),
    ("={{ $fromAI('bad key!') }}", "Invalid parameter key, must be between 1 and 64 characters long"),
    ("={{ 'abc'.toNumber() }}", "cannot convert to number"),
    ("={{ [1, 'a'].sum() }}", "sum(): all array elements must be numbers"),
]


def _ids(rows: list[Any]) -> list[str]:
    return [row[0] for row in rows]


@pytest.fixture(scope="module")
def ctx():  # type: ignore[no-untyped-def]
    return make_context()


VALUES = LITERALS + TEMPLATES + JSON_ACCESS + VARIABLES + EXTENSIONS + DATES


@pytest.mark.parametrize(("expression", "expected"), VALUES, ids=_ids(VALUES))
def test_expression_value(ctx: Any, expression: str, expected: Any) -> None:
    value = evaluate(expression, ctx, 0, parameter="value")
    assert value == expected
    assert type(value) is type(expected)


@pytest.mark.parametrize(("expression", "expected", "item_index"), NODE_DATA, ids=[f"{r[0]}#{r[2]}" for r in NODE_DATA])
def test_node_data(ctx: Any, expression: str, expected: Any, item_index: int) -> None:
    assert evaluate(expression, ctx, item_index) == expected


@pytest.mark.parametrize(("expression", "message"), ERRORS, ids=_ids(ERRORS))
def test_expression_error(ctx: Any, expression: str, message: str) -> None:
    with pytest.raises(ExpressionError) as info:
        evaluate(expression, ctx, 0, parameter="value")
    assert info.value.message.startswith(message)
    assert info.value.node_name == "Current"
    assert info.value.parameter == "value"
    assert info.value.item_index == 0


def test_table_size() -> None:
    rows = LITERALS + TEMPLATES + JSON_ACCESS + VARIABLES + NODE_DATA + EXTENSIONS + DATES + ERRORS
    assert len(rows) >= 150
