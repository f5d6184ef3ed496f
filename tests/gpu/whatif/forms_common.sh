# forms_common.sh: what the three-form what-if scripts (cover_run.sh, flag_run.sh) share; sourced
# by bash after 'here' (this folder), 'out' (the output folder), 'configs' (words A:B) and
# 'rounds' are set and a function 'form_args A B FORM' prints the program's arguments for a
# config's two numbers and a form.

# run_forms PROGRAM LABEL: for each config, 'rounds' times, forms 1, 2 and 3 in turn (interleaved);
# one line a run in $out/runs.txt (config form us_per_iteration checksum, from the program's
# "steady:" and "checksum:" lines; nan and none where it printed none), and the medians in
# $out/results.txt (forms_medians.py LABEL), which it prints. Returns 1 when a run or the medians
# failed, else 0.
run_forms() {
    local program=$1 label=$2 status=0 c a b k form text us sum
    : >"$out/runs.txt"
    for c in $configs; do
        IFS=: read -r a b <<<"$c"
        for k in $(seq "$rounds"); do
            for form in 1 2 3; do
                # shellcheck disable=SC2046  # form_args prints words
                text=$("$program" $(form_args "$a" "$b" "$form")) || status=1
                us=$(echo "$text" | awk '/^steady:/ {print $2}')
                sum=$(echo "$text" | awk '/^checksum:/ {print $2}')
                echo "$c $form ${us:-nan} ${sum:-none}" >>"$out/runs.txt"
            done
        done
    done
    python3 "$here/forms_medians.py" "$label" "$out/runs.txt" >"$out/results.txt" || status=1
    cat "$out/results.txt"
    return $status
}
