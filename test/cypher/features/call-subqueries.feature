Feature: CALL { } subqueries

  Scenario: Importing WITH passes outer variables into the subquery
    Given any graph
    When executing query:
      """
      UNWIND [1, 2, 3] AS x
      CALL {
        WITH x
        RETURN x * 10 AS y
      }
      RETURN x, y
      """
    Then the result should be, in order:
      | x | y  |
      | 1 | 10 |
      | 2 | 20 |
      | 3 | 30 |
    And no side effects

  Scenario: A subquery aggregates per outer row
    Given an empty graph
    And having executed:
      """
      CREATE (a:Person {name: 'a'}), (b:Person {name: 'b'}), (c:Person {name: 'c'})
      CREATE (a)-[:KNOWS]->(b), (a)-[:KNOWS]->(c), (b)-[:KNOWS]->(c)
      """
    When executing query:
      """
      MATCH (p:Person)
      CALL {
        WITH p
        OPTIONAL MATCH (p)-[:KNOWS]->(f)
        RETURN count(f) AS friends
      }
      RETURN p.name AS name, friends
      """
    Then the result should be, in any order:
      | name | friends |
      | 'a'  | 2       |
      | 'b'  | 1       |
      | 'c'  | 0       |
    And no side effects

  Scenario: A unit subquery runs its writes once per outer row
    Given an empty graph
    When executing query:
      """
      UNWIND [1, 2] AS x
      CALL {
        CREATE (:N)
      }
      RETURN x
      """
    Then the result should be, in any order:
      | x |
      | 1 |
      | 2 |
    And the side effects should be:
      | +nodes  | 2 |
      | +labels | 1 |

  Scenario: A subquery without importing WITH does not see outer variables
    Given any graph
    When executing query:
      """
      WITH 1 AS x
      CALL {
        RETURN x AS y
      }
      RETURN y
      """
    Then a SyntaxError should be raised at compile time: UndefinedVariable

  Scenario: A subquery may not return a name that is already bound
    Given any graph
    When executing query:
      """
      WITH 1 AS x
      CALL {
        RETURN 2 AS x
      }
      RETURN x
      """
    Then a SyntaxError should be raised at compile time: VariableAlreadyBound

  Scenario: UNION inside a subquery
    Given any graph
    When executing query:
      """
      CALL {
        RETURN 1 AS v
        UNION
        RETURN 2 AS v
      }
      RETURN v ORDER BY v
      """
    Then the result should be, in order:
      | v |
      | 1 |
      | 2 |
    And no side effects
