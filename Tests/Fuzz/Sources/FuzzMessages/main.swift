import FuzzFixtures

runLibFuzzer { data, size in fuzzMessages(data, size) }
