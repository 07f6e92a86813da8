"""The slow tier: tests left out by `make quick` (`pytest -m "not slow"`), each taking 2 s or more on the project's
2-core machine (measured with `pytest --durations=0`, cold, on 2026-11-26): they build many outputs, start
processes, install a wheel or run the documented commands. `make test` runs them all."""

SLOW_FILES = {
    "test_documented_commands.py",
    "test_packaging.py",
    "test_visual.py",
    "test_subheading_rows.py",
    "test_content.py",  # the user's library, every output built (a minute cold on 2 cores)
    "test_making.py",
    "test_facts.py",
    "test_variants.py",
    "test_every_variant.py",
    "test_card_decks.py",  # decks of cards built and read back (a minute and more on 2 cores)
    "test_growth.py",
}  # each reader timed on an input and on ten times it: seconds each

SLOW_FIXTURES = {"laid_out", "pages"}  # pages: tests/rendering/test_web.py, every sheet's web page (2 s)

SLOW_TESTS = {
    # measured again in the fast tier, warm, on 2026-11-26: 2 s or more each
    "test_every_column_takes_the_height_the_packer_planned",
    "test_every_fact_of_the_source_is_on_the_page",
    "test_a_fitted_figure_taller_than_its_column_is_scaled_to_fit_with_a_warning",
    "test_only_the_pages_asked_and_a_page_past_the_end_is_refused",
    "test_the_scaffold_of_qrs_new_uses_every_column_it_declares",
    "test_the_shard_option_builds_one_part",
    "test_a_correction_to_the_sheet_reaches_the_handout",
    "test_two_builds_of_the_same_source_are_byte_identical",
    "test_a_deleted_or_edited_pdf_is_built_again",
    # tests/test_new_block_type.py: a copy of the package, built in a process of its own
    "test_a_toy_block_type_needs_only_its_model_and_its_template",
    # tests/rendering/test_forks.py: cold builds of one output, in this process and in new ones
    "test_one_output_built_with_two_jobs_measures_in_two_processes_and_prints_the_bytes_of_one",
    "test_a_build_of_one_output_leaves_no_font_folder_behind",
    # tests/cli/test_changelog.py
    "test_the_english_box_prints_no_french_correction",
    # tests/cli/test_interrupt.py
    "test_a_worker_killed_by_the_system_is_said_and_loses_nothing",
    "test_sigint_stops_a_build_keeping_only_finished_outputs",
    # tests/cli/test_main.py
    "test_check_does_not_import_weasyprint",
    "test_shell_completion_offers_sheet_and_handout_ids",
    # tests/cli/test_scaffold.py
    "test_new_then_check_and_build",
    # tests/cli/test_starter.py
    "test_init_writes_a_library_that_checks_builds_and_tests",
    # tests/cli/test_watch.py
    "test_a_failed_build_keeps_the_last_good_preview",
    "test_a_translators_save_shows_the_translation",
    "test_ctrl_c_stops_the_watch_with_its_exit_code_and_qrs_message",
    "test_silent_connections_are_closed_and_bounded",
    "test_watching_a_handout_draws_its_pages_and_opens_the_browser",
    # tests/output/test_formats.py
    "test_a_new_format_is_one_module_and_one_line_of_the_registry",
    # tests/composing/drafts/test_hostile.py
    "test_a_pdf_of_a_million_operators",
    # tests/composing/drafts/test_roundtrip.py
    "test_the_pdf_of_a_sheet_of_an_unseen_game_imports_back_builds_and_returns_its_cells",
    # tests/composing/roster/test_making.py
    "test_every_roster_builds_in_every_language_it_lists_with_its_units_and_total",
    # tests/composing/test_diff.py
    "test_a_revision_is_never_made_into_a_path",
    "test_a_sheet_is_built_as_it_was_at_a_revision",
    "test_changes_since_marks_what_the_changelog_names_even_without_git",
    "test_the_marked_build_and_the_errata_only_sheet",
    "test_the_readme_edition_commands_run_on_a_repository_with_a_tagged_edition",
    # tests/composing/test_handout.py
    "test_examples_cover_three_games_in_french_and_english",
    # tests/composing/test_roster.py
    "test_a_3000_point_army_and_a_character_with_ten_magic_items_import_and_check",
    "test_a_deeply_nested_roster_with_absurd_points_imports_without_a_traceback",
    "test_a_roster_becomes_a_handout_that_checks_and_builds_with_everything_it_holds",
    "test_points_counts_and_the_army_total_are_printed",
    # tests/composing/test_translate.py
    "test_a_build_with_fallback_says_how_many_strings_fell_back",
    "test_a_complete_translation_builds",
    "test_missing_translation_fails_the_build_unless_fallback_is_allowed",
    # tests/output/test_export.py
    "test_png_pages_at_the_resolution_asked",
    "test_the_command_exports_a_handout_in_every_language",
    # tests/output/test_manifest.py
    "test_a_build_leaves_no_lock_among_the_outputs",
    "test_a_catalogue_rebuilds_only_its_language",
    "test_a_failed_build_marks_nothing_fresh",
    "test_a_glossed_build_is_a_variant_and_leaves_the_plain_outputs_alone",
    "test_a_second_build_builds_nothing",
    "test_a_template_or_an_option_rebuilds_everything",
    "test_a_wrong_typed_manifest_entry_is_dropped_with_a_warning_and_rebuilt",
    "test_nothing_to_do_imports_neither_weasyprint_nor_the_model",
    "test_one_cell_changed_rebuilds_that_sheet_and_the_handouts_drawn_from_it",
    "test_rebuild_builds_everything",
    "test_the_index_lists_every_page_with_its_pdf",
    "test_web_pages_are_outputs_as_pdfs_are",
    # tests/output/test_parallel.py
    "test_a_parallel_build_equals_a_sequential_one_byte_for_byte",
    "test_kill_9_of_a_parallel_build_leaves_no_worker_and_writes_nothing_after",
    # tests/output/test_preview.py
    "test_qrs_preview_draws_a_handout",
    # tests/rendering/test_heights.py
    "test_a_cache_file_hard_linked_to_a_file_elsewhere_is_not_read",
    "test_a_cache_file_that_is_a_link_to_a_file_elsewhere_is_not_read",
    "test_a_cache_folder_linked_outside_the_build_folder_is_neither_read_nor_written",
    "test_a_cache_of_a_shape_or_range_qrs_never_writes_is_ignored_whole",
    "test_a_cache_that_is_not_a_regular_file_is_ignored",
    "test_a_damaged_or_foreign_cache_is_ignored_and_rewritten",
    "test_a_damaged_scale_decision_is_ignored",
    "test_a_link_where_the_cache_goes_stops_the_build_and_nothing_is_written_through_it",
    "test_a_second_build_measures_nothing_and_plans_the_same",
    "test_a_tampered_cache_never_fails_the_build",
    "test_an_edited_block_is_the_only_one_measured_again",
    # tests/rendering/test_impose.py
    "test_a_sheet_is_laid_out_on_a5_in_one_column_and_printed_two_a_side",
    # tests/rendering/test_imprint.py
    "test_the_credits_print_in_the_header_of_the_first_page_and_not_in_the_errata_box",
    # tests/rendering/test_layout.py
    "test_a_block_that_may_not_continue_and_is_taller_than_a_column_fails_the_build",
    "test_a_column_starting_inside_a_group_repeats_its_heading_and_the_report_says_so_when_not",
    "test_a_sheet_a_little_too_long_is_set_smaller_to_fit_its_pages",
    "test_a_sheet_of_another_game_uses_every_column_and_leaves_no_hole",
    "test_a_sheet_too_long_even_at_the_smallest_type_fails_and_says_so",
    "test_a_word_too_wide_for_its_column_fails_the_build",
    "test_an_84_row_table_continues_over_columns_with_its_title_and_header_repeated",
    "test_build_edit_revert_build_gives_the_bytes_of_a_build_in_an_empty_folder",
    "test_no_column_before_the_last_page_is_more_than_15_percent_empty_and_the_last_is_balanced",
    # tests/rendering/test_libraries.py
    "test_weasyprint_opens_the_same_library_files",
    # tests/rendering/test_render.py
    "test_an_edit_lays_out_again_only_the_page_it_changed",
    "test_rendering_reads_only_the_projects_templates_and_fonts",
    # tests/rendering/test_variants.py
    "test_a_numbered_step_reads_its_number_first_also_when_continued",
    "test_names_never_overwrite_the_plain_pdf",
    # tests/rendering/test_web.py
    "test_a_file_put_in_the_font_cache_is_not_embedded_in_a_page",
    "test_a_kept_cut_lacking_a_character_asked_for_is_cut_again",
    "test_a_link_in_the_font_cache_is_refused_and_its_target_left_alone",
    "test_every_sheet_and_handout_has_a_page_in_every_language",
    "test_pages_parse_without_errors_and_name_their_language",
    # tests/test_files.py
    "test_a_catalogue_that_is_not_a_regular_file_is_named",
    "test_a_link_that_leads_out_of_its_folder_is_not_read",
    "test_a_link_within_its_folder_is_read",
    "test_a_source_that_is_not_a_regular_file_is_named",
    # tests/test_pipeline.py
    "test_a_failed_build_keeps_the_previous_pdf",
    "test_a_sheet_using_all_that_authors_of_other_games_reached_for_builds_complete_in_pdf_and_web",
    "test_completeness_check_notices_a_missing_row",
    "test_every_fact_of_the_source_is_printed",
    # tests/test_property.py
    "test_build_never_fails_with_an_internal_error",
    "test_a_sheet_of_long_units_cut_between_their_lines_builds_without_an_internal_error",
    "test_check_never_fails_with_an_internal_error",
    # tests/test_report.py
    "test_json_reports_each_output_written",
    # tests/test_write.py
    "test_a_folder_where_a_pdf_goes_is_named_by_a_worker_build",
    "test_a_full_disk_is_reported_as_such_and_keeps_the_previous_pdf",
    "test_a_permission_denied_is_reported_with_its_path",
    "test_a_read_only_build_folder_is_named_by_the_output_not_the_temporary_file",
    "test_no_output_is_written_or_removed_through_a_linked_build_folder",
    "test_outputs_take_the_umask_permissions",
    # tests/test_report.py
    "test_a_language_in_progress_is_left_out_of_a_build_that_names_none_and_said",
    # measured again in the fast tier, warm, on 2026-11-27 (`pytest -m "not slow" --durations=25`): 2 s or more
    "test_a_client_that_hangs_up_is_no_error_and_slow_clients_lock_no_one_out",  # tests/cli/test_watch.py
    "test_any_cut_of_nested_lists_prints_every_character_once_in_its_item_and_every_marker_once",  # test_cuts.py
    "test_bare_metal_edition_s_critical_tables_are_dice_tables_that_check_and_build",  # drafts/test_dice_columns.py
    # tests/composing/drafts/test_documents.py: eighteen documents imported, checked and built (3 to 8 s each)
    "test_every_document_of_another_author_imports_checks_and_builds_unedited",
    # and the French combat tables' import built to PDF and HTML (5 s)
    "test_french_combat_tables_set_their_matrix_under_the_first_columns_text_each_key_on_one_line",
    "test_an_army_with_a_wizard_keeps_the_magic_phase",  # tests/composing/test_roster_language.py
    # measured again in the fast tier, warm, on 2026-11-27 (`pytest -m "not slow" --durations=40`): 2 s or more
    "test_the_content_suite_finds_every_text_of_a_unit_cut_between_its_lines",  # tests/test_tall_units.py
    "test_a_real_rosters_long_rule_is_printed_whole_and_leaves_no_hole",  # tests/test_pipeline.py
    # tests/rendering/test_heights.py: a sheet and its copy built cold in two folders (3 s), and beside a damaged file
    "test_a_sheet_under_another_id_measures_nothing_another_sheet_measured_and_prints_the_same",
    "test_another_sheets_file_holding_a_measurement_qrs_never_writes_is_not_read",
    "test_a_default_sources_or_build_folder_that_links_out_of_the_library_is_refused_by_name",  # tests/test_write.py
}

# The heaviest scopes, started first so that none is left to run alone at the end (tests/scheduling.py), heaviest
# first: measured with `pytest --durations=60` on 2026-11-26. Every test of a file in SPREAD is a unit of its own,
# run by whichever worker is free; the others' files are one unit each (--dist loadfile).
HEAVY = [
    "tests/test_documented_commands.py",
    "tests/rendering/test_every_variant.py",
    "tests/composing/roster/test_making.py",
    "tests/rendering/test_layout.py",
    "tests/composing/test_diff.py",
    "tests/composing/test_handout.py",
]
SPREAD = {"tests/rendering/test_every_variant.py"}
# Files run by one worker, as one unit, under the first's name: they share a session fixture that builds for both
TOGETHER = {
    "tests/composing/roster/test_facts.py": "tests/composing/roster/test_making.py",  # rosters_imported
    "tests/test_content.py": "tests/test_documented_commands.py",  # the library's PDFs, built by the first run
}
