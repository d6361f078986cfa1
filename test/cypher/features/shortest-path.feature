Feature: shortestPath and allShortestPaths (only in WITH / RETURN, directed, bound endpoints)

  Background:
    Given an empty graph
    And having executed:
      """
      CREATE (a:N {name: 'a'}), (b:N {name: 'b'}), (c:N {name: 'c'}), (d:N {name: 'd'})
      CREATE (a)-[:R]->(b), (b)-[:R]->(d), (a)-[:R]->(c), (c)-[:R]->(d), (a)-[:S]->(d)
      """

  Scenario: The shortest path uses the first edge in adjacency order
    When executing query:
      """
      MATCH (a:N {name: 'a'}), (d:N {name: 'd'})
      RETURN shortestPath((a)-[:R*]->(d)) AS p
      """
    Then the result should be, in any order:
      | p                                                   |
      | <(:N {name: 'a'})-[:R]->(:N {name: 'b'})-[:R]->(:N {name: 'd'})> |
    And no side effects

  Scenario: Any relationship type gives the one-hop path
    When executing query:
      """
      MATCH (a:N {name: 'a'}), (d:N {name: 'd'})
      WITH shortestPath((a)-[*]->(d)) AS p
      RETURN length(p) AS len
      """
    Then the result should be, in any order:
      | len |
      | 1   |
    And no side effects

  Scenario: allShortestPaths returns every minimal path
    When executing query:
      """
      MATCH (a:N {name: 'a'}), (d:N {name: 'd'})
      RETURN size(allShortestPaths((a)-[:R*]->(d))) AS n
      """
    Then the result should be, in any order:
      | n |
      | 2 |
    And no side effects

  Scenario: No path gives null
    When executing query:
      """
      MATCH (a:N {name: 'a'}), (d:N {name: 'd'})
      RETURN shortestPath((d)-[*]->(a)) AS p
      """
    Then the result should be, in any order:
      | p    |
      | null |
    And no side effects

  Scenario: A minimum of zero hops matches a node to itself
    When executing query:
      """
      MATCH (a:N {name: 'a'})
      RETURN length(shortestPath((a)-[*0..]->(a))) AS len
      """
    Then the result should be, in any order:
      | len |
      | 0   |
    And no side effects

  Scenario: shortestPath in MATCH is rejected
    When executing query:
      """
      MATCH p = shortestPath((a:N {name: 'a'})-[*]->(d:N {name: 'd'}))
      RETURN p
      """
    Then a SyntaxError should be raised at compile time: UnsupportedShortestPath

  Scenario: shortestPath in WHERE is rejected
    When executing query:
      """
      MATCH (a:N), (d:N)
      WHERE length(shortestPath((a)-[*]->(d))) > 1
      RETURN a
      """
    Then a SyntaxError should be raised at compile time: UnsupportedShortestPath

  Scenario: Undirected shortestPath is rejected
    When executing query:
      """
      MATCH (a:N {name: 'a'}), (d:N {name: 'd'})
      RETURN shortestPath((a)-[*]-(d)) AS p
      """
    Then a SyntaxError should be raised at compile time: RequiresDirectedRelationship

  Scenario: Unbound endpoints are rejected
    When executing query:
      """
      MATCH (a:N {name: 'a'})
      RETURN shortestPath((a)-[*]->(x)) AS p
      """
    Then a SyntaxError should be raised at compile time: UnboundShortestPathEndpoint

  Scenario: A minimum above one hop is rejected
    When executing query:
      """
      MATCH (a:N {name: 'a'}), (d:N {name: 'd'})
      RETURN shortestPath((a)-[*2..]->(d)) AS p
      """
    Then a SyntaxError should be raised at compile time: InvalidShortestPathPattern

  Scenario: Property filters are rejected
    When executing query:
      """
      MATCH (a:N {name: 'a'}), (d:N {name: 'd'})
      RETURN shortestPath((a)-[:R* {w: 1}]->(d)) AS p
      """
    Then a SyntaxError should be raised at compile time: InvalidShortestPathPattern
