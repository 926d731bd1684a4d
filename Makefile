# The kit's make-style script.  LOCOMO_DATA points at locomo10.json (fetched on first use if unset).
PY ?= python3
OUT ?= out
VS ?=           # a reference command for make bench, e.g. VS=/path/to/locomo-bench (a built Go binary)
# the package's copy of claims.yaml, peers.yaml and golden/ (what an installed kit reads)
SHIPPED = locomo_repro/shipped
export LOCOMO_DATA

.PHONY: run test bench bench-readme sweeps answers stats check reach claims golden golden-check shipped stems report reference-golden clean

run:            ## the published default table
	$(PY) -m locomo_repro

test:           ## the whole test suite, every published claim included
	$(PY) -m tox

bench:          ## the speed table (CPU, wall, peak memory) and the proof's (tests, claims, report); VS="reference command" adds it, alternating, and ratios
	$(PY) -m locomo_repro bench --runs 5 --proof-runs 1 --judge-runs 1 --vs "$(VS)"

bench-readme:   ## the same, also written into docs/speed.md
	$(PY) -m locomo_repro bench --runs 5 --proof-runs 1 --judge-runs 1 --vs "$(VS)" --readme docs/speed.md

sweeps:         ## every sweep of the README
	for s in k floor span band parts; do $(PY) -m locomo_repro -sweep $$s; done

answers:        ## predictions files of the three published arm sets
	mkdir -p $(OUT)
	$(PY) -m locomo_repro -quiet -out $(OUT)/answers.json
	$(PY) -m locomo_repro -quiet -arms walk -out $(OUT)/answers-walk.json
	$(PY) -m locomo_repro -quiet -arms factor -out $(OUT)/answers-factor.json

stats: answers  ## constant abstention, AUCs and bootstrap intervals from the predictions
	for f in $(OUT)/answers.json $(OUT)/answers-walk.json $(OUT)/answers-factor.json; do $(PY) -m locomo_repro -stats $$f; done

check: answers  ## score the predictions with the official evaluation.py itself
	$(PY) -m locomo_repro official $(OUT)/answers.json $(OUT)/answers-walk.json $(OUT)/answers-factor.json

reach:          ## evidence reach of one and two hops over all ten conversations
	$(PY) -m locomo_repro reach

report:         ## the one-page HTML report (needs the report extra: pip install '.[report]')
	mkdir -p $(OUT)
	$(PY) -m locomo_repro report -o $(OUT)/report.html

claims:         ## status of every published number, also written to docs/claims-summary.md
	$(PY) -m locomo_repro claims --markdown docs/claims-summary.md

golden:         ## rebuild golden/ with the official scorer (downloaded once, sha-checked), and the package's copy
	$(PY) -m locomo_repro golden --out golden
	$(MAKE) shipped

golden-check:   ## rebuild the golden files in memory and compare them with the kit's, byte for byte
	$(PY) -m locomo_repro golden --check

shipped:        ## copy claims*.yaml, peers.yaml and golden/ into the package (a test holds the copies identical)
	rm -rf $(SHIPPED) && mkdir -p $(SHIPPED) && cp -R claims.yaml claims-audit.yaml claims-plus.yaml peers.yaml golden $(SHIPPED)/

stems:          ## remake the stems shipped for the installed NLTK (every word the published commands stem, and golden's)
	mkdir -p $(OUT) && $(PY) -m locomo_repro stems > $(OUT)/stems.tsv && mv $(OUT)/stems.tsv locomo_repro/text/stems.tsv

reference-golden: ## rebuild golden/reference/ from a folder of the reference's outputs: make reference-golden REF=DIR
	@test -n "$(REF)" || { echo "make reference-golden: set REF to the folder of the reference's outputs" >&2; exit 2; }
	$(PY) -m locomo_repro.score.reference "$(REF)" --out golden/reference
	$(MAKE) shipped

clean:
	rm -rf $(OUT) .tox .pytest_cache .hypothesis build *.egg-info
