# Placeholder until the HIP samples land.
hip-check:
	@echo "hip-check: no HIP sources yet"
