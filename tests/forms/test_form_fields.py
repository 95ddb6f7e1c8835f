"""The pure parts of the forms: fields and their conversions, sanitising, the page data."""

from __future__ import annotations

import pytest

from weft.errors import NodeOperationError
from weft.nodes.forms.fields import field_identifier, json_fields, parameter_fields, submission_json
from weft.nodes.forms.html import handle_newlines, safe_redirect_url, sanitize_custom_css, sanitize_html
from weft.nodes.forms.options import form_path, form_trigger_options
from weft.nodes.forms.page import form_page
from weft.workflow import NodeModel


def test_values_are_converted_as_n8n_converts_them() -> None:
    fields = parameter_fields(
        {
            "values": [
                {"fieldLabel": "N", "fieldType": "number"},
                {"fieldLabel": "Bad", "fieldType": "number"},
                {"fieldLabel": "R", "fieldType": "radio"},
                {"fieldLabel": "M", "fieldType": "dropdown", "multiselect": True},
                {"fieldLabel": "F", "fieldType": "file"},
                {"fieldLabel": "T"},
            ]
        },
        "Form",
    )
    body = {"field-0": "4.5", "field-1": "x", "field-2": '["a"]', "field-3": '["p","q"]', "field-4": {"filename": "a"}}
    assert submission_json(fields, body, 2.3) == {
        "N": 4.5, "Bad": None, "R": "a", "M": ["p", "q"], "F": [{"filename": "a"}], "T": None,
    }  # fmt: skip


def test_field_names_replace_labels_from_2_4() -> None:
    entry = {"fieldLabel": "Full name", "fieldName": "full"}
    assert (field_identifier(entry, 2.3), field_identifier(entry, 2.4)) == ("Full name", "full")
    assert field_identifier({"fieldName": "hidden"}, 2.3) == "hidden"


def test_bad_fields_are_typed_errors_naming_the_fix() -> None:
    with pytest.raises(NodeOperationError, match="unknown type 'colour'"):
        parameter_fields({"values": [{"fieldLabel": "A", "fieldType": "colour"}]}, "Form")
    with pytest.raises(NodeOperationError, match="Value is not valid JSON"):
        json_fields("[{", "Form")
    assert json_fields('[{"fieldLabel": "A", "fieldOptions": ["x"]}]', "Form")[0]["fieldOptions"] == {
        "values": [{"option": "x"}]
    }


def test_sanitising_keeps_n8ns_allow_list() -> None:
    clean = sanitize_html('<p onclick="x">a<script>b</script></p><iframe src="https://v"></iframe>')
    assert clean.startswith('<p>a</p><iframe src="https://v" ')
    for attribute in ('sandbox=""', 'referrerpolicy="strict-origin-when-cross-origin"', 'allow="fullscreen; autoplay;'):
        assert attribute in clean
    assert (
        sanitize_custom_css("a > b { c: 'd' } &amp; &lt;/style&gt;</style><b>x</b>")
        == "a > b { c: 'd' } & &lt;/style>x"
    )
    assert handle_newlines("a\\nb\\\\nc") == "a\nb\\nc"
    assert (safe_redirect_url("javascript:alert(1)"), safe_redirect_url(" https://x.y/z ")) == (None, "https://x.y/z")


def test_the_page_data_follows_prepare_form_data() -> None:
    fields = parameter_fields(
        {
            "values": [
                {"fieldLabel": "A", "fieldName": "a"},
                {"fieldType": "hiddenField", "fieldName": "h", "fieldValue": "v"},
            ]
        },
        "F",
    )
    data = form_page(title="T", description="", fields=fields, version=2.5, query={"a": "pre"})
    assert data["formDescriptionMetadata"] == "n8n form"
    assert [(f["id"], f["defaultValue"]) for f in data["formFields"]] == [("field-0", "pre"), ("field-1", "")]
    assert data["formFields"][1]["hiddenValue"] == "v"


def test_paths_and_options_by_version() -> None:
    node = NodeModel.model_validate(
        {
            "name": "F",
            "type": "n8n-nodes-base.formTrigger",
            "typeVersion": 2,
            "parameters": {"options": {}},
            "webhookId": "w1",
        }
    )
    assert form_path(node) == "w1"
    options = form_trigger_options(node)
    assert (options.use_workflow_timezone, options.custom_css, options.response_mode) == (False, None, "onReceived")


def test_a_multiselect_that_is_not_json_names_the_node_and_the_fix() -> None:
    fields = parameter_fields({"values": [{"fieldLabel": "Tags", "fieldType": "checkbox"}]}, "Survey")
    with pytest.raises(NodeOperationError, match="'Tags' is not a JSON list of options") as info:
        submission_json(fields, {"field-0": "a,b"}, 2.3, "Survey")
    assert info.value.node_name == "Survey" and "JSON array" in (info.value.description or "")
