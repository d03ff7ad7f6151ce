import FuzzFixtures

runLibFuzzer { data, size in fuzzToken(data, size) }
